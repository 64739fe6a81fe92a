import {
  env,
  runDurableObjectAlarm,
  runInDurableObject,
} from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { RateLimiter } from "../../src/durable-objects/rate-limiter";

const limiter = (name: string) =>
  env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(name));

const eventRows = (stub: DurableObjectStub<RateLimiter>) =>
  runInDurableObject(
    stub,
    (_, state) =>
      state.storage.sql
        .exec<{ rows: number }>("SELECT count(*) AS rows FROM events")
        .one().rows,
  );

describe("the RateLimiter Durable Object", () => {
  it("counts exactly on a sliding window, and says when the oldest counted event leaves it", async () => {
    const stub = limiter("sliding");
    const limits = [{ limit: 2, windowMs: 1000 }];
    expect(await stub.consume("c", 0, limits)).toEqual({ allowed: true });
    expect(await stub.consume("c", 10, limits)).toEqual({ allowed: true });
    expect(await stub.consume("c", 20, limits)).toEqual({
      allowed: false,
      retryAfterMs: 980,
    });
    // Refused events do not count: the one at 0 leaves at 1000, not later.
    expect(await stub.consume("c", 999, limits)).toEqual({
      allowed: false,
      retryAfterMs: 1,
    });
    expect(await stub.consume("c", 1000, limits)).toEqual({ allowed: true });
    // Another counter of the same key counts apart.
    expect(await stub.consume("d", 1000, limits)).toEqual({ allowed: true });
  });

  it("applies every limit and answers with the latest retry", async () => {
    const stub = limiter("several");
    const limits = [
      { limit: 3, windowMs: 1000 },
      { limit: 1, windowMs: 100 },
    ];
    expect(await stub.consume("c", 0, limits)).toEqual({ allowed: true });
    expect(await stub.consume("c", 50, limits)).toEqual({
      allowed: false,
      retryAfterMs: 50,
    });
    expect(await stub.consume("c", 100, limits)).toEqual({ allowed: true });
    expect(await stub.consume("c", 200, limits)).toEqual({ allowed: true });
    expect(await stub.consume("c", 300, limits)).toEqual({
      allowed: false,
      retryAfterMs: 700,
    });
  });

  it("keeps only the events of the longest window, even under a large limit", async () => {
    const stub = limiter("large");
    const limits = [{ limit: 100_000, windowMs: 60_000 }];
    // Called inside the object: thousands of events without a round trip each.
    await runInDurableObject(stub, async (instance: RateLimiter) => {
      for (let time = 0; time < 2000; time++) {
        await instance.consume("c", time, limits);
      }
    });
    expect(await eventRows(stub)).toBe(2000);
    // A minute later the first 1001 events have left the window.
    await stub.consume("c", 61_000, limits);
    expect(await eventRows(stub)).toBe(1000);
  });

  it("clears its events with the alarm and counts again afterwards", async () => {
    const stub = limiter("alarm");
    const limits = [{ limit: 1, windowMs: 60_000 }];
    const before = Date.now();
    await stub.consume("c", before, limits);
    const alarm = await runInDurableObject(stub, (_, state) =>
      state.storage.getAlarm(),
    );
    // Not before the window has passed, however long the call took.
    expect(alarm).toBeGreaterThanOrEqual(before + 60_000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await eventRows(stub)).toBe(0);
    expect(await stub.consume("c", Date.now(), limits)).toEqual({
      allowed: true,
    });
  });
});
