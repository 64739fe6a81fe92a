/** The environments of an API key the key tool issues: test data and live data, kept apart. */
export const KEY_ENVIRONMENTS = ["test", "live"] as const;
/** Where a credential works, and so its documents: demo tokens issue demo documents. */
export const ENVIRONMENTS = [...KEY_ENVIRONMENTS, "demo"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
/** The one environment whose documents authorities' eFTI gates read and are told of: test and demo data never reach them. */
export const GATE_ENVIRONMENT = "live" satisfies Environment;
