import { DurableObject } from "cloudflare:workers";
import type { RateDecision, RateLimit } from "../domain/rate-limits";

/**
 * Exact per-key counting on sliding windows (one object per key, such as a
 * demo caller's network or a credential): each counter keeps the times of its events within
 * its longest window, so a decision is exact at every boundary and the
 * `Retry-After` is the time until the oldest counted event leaves its window.
 * The events are rows of the object's SQLite database, indexed by counter and
 * time: an event costs one insert and a walk of the index over the window's
 * events, where one stored array had to be read and rewritten whole on every
 * request (thousands of times under a large limit). An alarm clears them once
 * every window has passed. Times come from the
 * caller, whose clock tests can set.
 */
export class RateLimiter extends DurableObject<Env> {
  /** When the alarm that clears the events fires, as far as this instance knows. */
  #clearAt: number | null | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#createTable();
  }

  #createTable(): void {
    this.ctx.storage.sql.exec(
      `CREATE TABLE IF NOT EXISTS events (counter TEXT NOT NULL, time INTEGER NOT NULL);
       CREATE INDEX IF NOT EXISTS events_by_counter_and_time ON events (counter, time)`,
    );
  }

  /**
   * Records one event on `counter` if every limit allows it; otherwise
   * records nothing and says when to retry.
   */
  async consume(
    counter: string,
    now: number,
    limits: RateLimit[],
  ): Promise<RateDecision> {
    const { sql } = this.ctx.storage;
    const longest = Math.max(...limits.map((l) => l.windowMs));
    sql.exec(
      "DELETE FROM events WHERE counter = ? AND time <= ?",
      counter,
      now - longest,
    );
    let retryAfterMs = 0;
    for (const { limit, windowMs } of limits) {
      // The limit-th newest event in the window: once it leaves, one more fits.
      const [oldestThatCounts] = sql
        .exec<{ time: number }>(
          "SELECT time FROM events WHERE counter = ? AND time > ? ORDER BY time DESC LIMIT 1 OFFSET ?",
          counter,
          now - windowMs,
          limit - 1,
        )
        .toArray();
      if (oldestThatCounts) {
        retryAfterMs = Math.max(
          retryAfterMs,
          oldestThatCounts.time + windowMs - now,
        );
      }
    }
    if (retryAfterMs > 0) return { allowed: false, retryAfterMs };
    sql.exec("INSERT INTO events (counter, time) VALUES (?, ?)", counter, now);
    await this.#clearAfter(longest);
    return { allowed: true };
  }

  /**
   * Makes sure the alarm fires no sooner than `windowMs` from now. It is
   * moved, to two windows ahead, only once it would come too soon, so that
   * an object set no alarm for most events.
   */
  async #clearAfter(windowMs: number): Promise<void> {
    if (this.#clearAt === undefined) {
      this.#clearAt = await this.ctx.storage.getAlarm();
    }
    if (this.#clearAt === null || this.#clearAt < Date.now() + windowMs) {
      this.#clearAt = Date.now() + 2 * windowMs;
      await this.ctx.storage.setAlarm(this.#clearAt);
    }
  }

  /** Every window has passed since the last event: nothing is worth keeping. */
  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
    this.#clearAt = null;
    this.#createTable();
  }
}
