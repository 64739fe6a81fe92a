import type { RateLimit } from "../rate-limits";

/** The demo's switch and limits (spec 8), from the Worker's configuration (src/config.ts). */
export interface DemoConfig {
  enabled: boolean;
  tokenLimits: RateLimit[];
  documentLimits: RateLimit[];
  documentsPerToken: number;
}
