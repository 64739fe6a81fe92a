import { DurableObject } from "cloudflare:workers";
import type { RateDecision, RateLimit } from "../domain/rate-limits";

/**
 * Exact per-key counting on sliding windows (one object per key, such as a
 * demo IP): each counter keeps the times of its events within its longest
 * window, so a decision is exact at every boundary and the `Retry-After` is
 * the time until the oldest counted event leaves its window. An alarm clears
 * the counters once every window has passed, so storage never grows without
 * bound. Times come from the caller, whose clock tests can set.
 */
export class RateLimiter extends DurableObject<Env> {
  /**
   * Records one event on `counter` if every limit allows it; otherwise
   * records nothing and says when to retry.
   */
  async consume(
    counter: string,
    now: number,
    limits: RateLimit[],
  ): Promise<RateDecision> {
    const longest = Math.max(...limits.map((l) => l.windowMs));
    const events = (
      (await this.ctx.storage.get<number[]>(counter)) ?? []
    ).filter((time) => time > now - longest);
    let retryAfterMs = 0;
    for (const { limit, windowMs } of limits) {
      const inWindow = events.filter((time) => time > now - windowMs);
      if (inWindow.length >= limit) {
        const oldestThatCounts = inWindow[inWindow.length - limit] as number;
        retryAfterMs = Math.max(
          retryAfterMs,
          oldestThatCounts + windowMs - now,
        );
      }
    }
    if (retryAfterMs > 0) return { allowed: false, retryAfterMs };
    events.push(now);
    await this.ctx.storage.put(counter, events);
    // Only ever later: another counter here may need its events longer.
    const clearAt = Date.now() + longest;
    const scheduled = await this.ctx.storage.getAlarm();
    if (scheduled === null || scheduled < clearAt) {
      await this.ctx.storage.setAlarm(clearAt);
    }
    return { allowed: true };
  }

  /** Every window has passed since the last event: nothing is worth keeping. */
  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }
}
