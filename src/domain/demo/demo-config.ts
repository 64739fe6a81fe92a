import type { RateLimit } from "../rate-limits";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** The demo's switch and limits (spec 8), from the Worker's configuration. */
export interface DemoConfig {
  enabled: boolean;
  tokenLimits: RateLimit[];
  documentLimits: RateLimit[];
  documentsPerToken: number;
}

type DemoVars = Partial<
  Pick<
    Env,
    | "DEMO_ENABLED"
    | "DEMO_TOKENS_PER_MINUTE"
    | "DEMO_TOKENS_PER_HOUR"
    | "DEMO_DOCUMENTS_PER_MINUTE"
    | "DEMO_DOCUMENTS_PER_HOUR"
    | "DEMO_DOCUMENTS_PER_TOKEN"
  >
>;

/** Reads the `DEMO_*` vars of wrangler.toml; the contract's figures when one is missing. */
export function demoConfig(vars: DemoVars): DemoConfig {
  const count = (name: keyof DemoVars, fallback: number): number => {
    const value = Number(vars[name]);
    return Number.isInteger(value) && value > 0 ? value : fallback;
  };
  return {
    enabled: vars.DEMO_ENABLED !== "false",
    tokenLimits: [
      { limit: count("DEMO_TOKENS_PER_MINUTE", 3), windowMs: MINUTE_MS },
      { limit: count("DEMO_TOKENS_PER_HOUR", 10), windowMs: HOUR_MS },
    ],
    documentLimits: [
      { limit: count("DEMO_DOCUMENTS_PER_MINUTE", 5), windowMs: MINUTE_MS },
      { limit: count("DEMO_DOCUMENTS_PER_HOUR", 20), windowMs: HOUR_MS },
    ],
    documentsPerToken: count("DEMO_DOCUMENTS_PER_TOKEN", 10),
  };
}
