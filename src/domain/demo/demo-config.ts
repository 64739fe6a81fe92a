import type { RateLimit } from "../rate-limits";

/** The demo's switch and limits (docs/api.md, Rate limits), from the Worker's configuration (src/config.ts). */
export interface DemoConfig {
  enabled: boolean;
  tokenLimits: RateLimit[];
  documentLimits: RateLimit[];
  documentsPerToken: number;
  /** Every request of a network's demo tokens, reads included. */
  requestLimits: RateLimit[];
}
