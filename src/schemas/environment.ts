/** Where a credential works, and so its documents: demo tokens issue demo documents. */
export const ENVIRONMENTS = ["test", "live", "demo"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
