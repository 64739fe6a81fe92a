import { afterEach, describe, expect, it, vi } from "vitest";
import { minutesBetweenRuns, runEvery } from "../../scripts/lib/local-cron";

// npm start's cron: the "every N minutes" crons of wrangler.toml, each run
// through the operations API after the last one ended.

describe("npm start's local cron", () => {
  afterEach(() => vi.useRealTimers());

  it.each([
    ["*/5 * * * *", 5],
    ["* * * * *", 1],
    ["*/15 * * * *", 15],
    ["0 3 * * *", null],
    ["*/5 * * * 1", null],
    ["*/0 * * * *", null],
  ])("reads %s as every %s minutes", (cron, minutes) => {
    expect(minutesBetweenRuns(cron)).toBe(minutes);
  });

  it("runs the work every N minutes, goes on after a failed run, and stops when told", async () => {
    vi.useFakeTimers();
    const failures: unknown[] = [];
    const work = vi
      .fn<() => Promise<unknown>>()
      .mockRejectedValueOnce(new Error("503"))
      .mockResolvedValue({});
    const stop = runEvery(5, work, (error) => failures.push(error));

    await vi.advanceTimersByTimeAsync(5 * 60_000 - 1);
    expect(work).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(work).toHaveBeenCalledTimes(1);
    expect(failures).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(work).toHaveBeenCalledTimes(2);

    stop();
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(work).toHaveBeenCalledTimes(2);
  });
});
