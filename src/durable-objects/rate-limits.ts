import type { RateLimits } from "../domain/rate-limits";
import type { RateLimiter } from "./rate-limiter";

/** Rate limits counted in RateLimiter Durable Objects, one object per key. */
export const durableObjectRateLimits = (
  namespace: DurableObjectNamespace<RateLimiter>,
): RateLimits => ({
  consume: (key, counter, now, limits) =>
    namespace.get(namespace.idFromName(key)).consume(counter, now, limits),
});
