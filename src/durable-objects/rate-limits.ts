import type { RateLimits } from "../domain/rate-limits";
import { serviceUnavailable } from "../errors";
import type { RateLimiter } from "./rate-limiter";

/**
 * Rate limits counted in RateLimiter Durable Objects, one object per key. An
 * object that cannot be reached is an outage (503), not a refusal: the
 * request was not counted.
 */
export const durableObjectRateLimits = (
  namespace: DurableObjectNamespace<RateLimiter>,
): RateLimits => ({
  async consume(key, counter, now, limits) {
    try {
      return await namespace
        .get(namespace.idFromName(key))
        .consume(counter, now, limits);
    } catch (error) {
      throw serviceUnavailable("rate_limiter", error);
    }
  },
});
