import { env, runInDurableObject } from "cloudflare:test";
import { expect } from "vitest";
import {
  type RebalanceProgress,
  rebalanceJob,
  type ShardRebalance,
} from "../../src/durable-objects/shard-rebalance";

// The rebalance tests' service ran on the first two of the test's four
// shards, the bindings DB_2 and DB_3 hidden; the rebalance is from 2 to 4.

export const FROM = 2;

/** The bindings of the service on two shards. */
export const twoShards = {
  ...env,
  DB_2: undefined,
  DB_3: undefined,
} as unknown as Env;

/** The rebalance job of the test Worker. */
export const job = (): DurableObjectStub<ShardRebalance> =>
  rebalanceJob(env.REBALANCE);

/** The job's progress and whether its next alarm is set, read at one moment. */
export const jobState = () =>
  runInDurableObject(job(), async (instance: ShardRebalance, state) => {
    const [progress, alarm] = await Promise.all([
      instance.progress(),
      state.storage.getAlarm(),
    ]);
    return { progress, alarmSet: alarm !== null };
  });

// While the runtime hands an alarm to the job, before the job sets the next
// one, no alarm shows: a pass may look so for a moment, never for this long.
const ALARM_HANDOVER_MS = 5_000;

/**
 * The job's progress once its own alarms have moved the pass to the end,
 * looked at every few milliseconds for up to `timeoutMs`; a pass running
 * with no alarm set for longer than a handover (nothing would move it on)
 * fails then.
 */
export async function rebalanceDone(
  timeoutMs = 60_000,
): Promise<RebalanceProgress> {
  const deadline = Date.now() + timeoutMs;
  let alarmSetAt = Date.now();
  for (;;) {
    const { progress, alarmSet } = await jobState();
    if (progress?.state === "done") return progress;
    expect(progress?.state).toBe("running");
    if (alarmSet) alarmSetAt = Date.now();
    if (Date.now() - alarmSetAt > ALARM_HANDOVER_MS) {
      throw new Error(`running with no alarm set: ${JSON.stringify(progress)}`);
    }
    if (Date.now() > deadline) {
      throw new Error(`still running: ${JSON.stringify(progress)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
