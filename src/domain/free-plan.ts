// The Workers Free plan's limits on one invocation (docs/operations.md "On
// the Workers Free plan"): requests to the internet, and calls to
// Cloudflare's services (each D1 query, R2 object call, Durable Object
// request and queue send).
export const FREE_PLAN_SUBREQUESTS = 50;
export const FREE_PLAN_SERVICE_CALLS = 1000;

/**
 * The requests to the internet (webhook POSTs, eFTI gate PUTs) one
 * invocation may still make: the Free plan's count on every plan, so that a
 * queue batch never fails half way on it; what does not fit waits for a
 * later invocation.
 */
export class Subrequests {
  #left = FREE_PLAN_SUBREQUESTS;

  /** Up to `wanted` of them, counted as made: how many. */
  take(wanted: number): number {
    const taken = Math.max(0, Math.min(wanted, this.#left));
    this.#left -= taken;
    return taken;
  }
}
