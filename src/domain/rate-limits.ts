/** A limit of `limit` events per `windowMs`. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

export type RateDecision =
  | { allowed: true }
  | { allowed: false; retryAfterMs: number };

/** Exact counters of events per key, such as a demo caller's network or a credential. */
export interface RateLimits {
  /** Counts one event on `counter` of `key` if every limit allows it. */
  consume(
    key: string,
    counter: string,
    now: number,
    limits: RateLimit[],
  ): Promise<RateDecision>;
}
