import { DurableObject } from "cloudflare:workers";

/**
 * Counts requests per key (a demo IP) in time windows, exactly, in one
 * object per key. Filled in by the demo issue.
 */
export class RateLimiter extends DurableObject<Env> {}
