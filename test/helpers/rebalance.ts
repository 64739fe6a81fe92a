import { env, runInDurableObject } from "cloudflare:test";
import { expect } from "vitest";
import { minimalRequest } from "../../fixtures/requests";
import { openShards } from "../../src/db/client";
import { copyRows, pageOfTable } from "../../src/db/rebalance";
import { rebalanceStep } from "../../src/domain/operations/rebalance-shards";
import {
  credentialBucket,
  referenceBucket,
  shardOfBucket,
  uuidBucket,
} from "../../src/domain/shard-routing";
import {
  type RebalanceProgress,
  rebalanceJob,
  type ShardRebalance,
} from "../../src/durable-objects/shard-rebalance";
import type { DocumentResultBody } from "./documents-api";
import { opsClient, opsJson } from "./ops";

// A service that ran on the first two of the test's four shards (DB_2 and
// DB_3 hidden), then on four while a rebalance from two runs
// (SHARDS_BEFORE = 2), then on four once it is done.

export const FROM = 2;

/** The bindings of the service before the rebalance: two shards. */
export const twoShards = {
  ...env,
  DB_2: undefined,
  DB_3: undefined,
} as unknown as Env;

/** `bindings` (all four shards by default) while the rebalance from two runs. */
export const whileMoving = (bindings: Env = env): Env => ({
  ...bindings,
  SHARDS_BEFORE: String(FROM),
});

/** Whether a bucket's rows move: its shard among four is not the one among two. */
export const bucketMoves = (bucket: number): boolean =>
  shardOfBucket(bucket, 4) !== shardOfBucket(bucket, FROM);

/** A key issued on two shards, with its organization; with `homeMoving`, one whose list moves to another home shard. */
export async function keyOnTwoShards(
  organization: string,
  homeMoving = false,
): Promise<{ key: string; organizationId: string; credentialId: string }> {
  for (;;) {
    const response = await opsClient(twoShards)(
      "/ops/v1/keys",
      opsJson("POST", { organization, environment: "test" }),
    );
    const issued = (await response.json()) as {
      key: string;
      credential_id: string;
      organization_id: string;
    };
    const home = credentialBucket({
      id: issued.credential_id,
      environment: "test",
    });
    if (!homeMoving || bucketMoves(home)) {
      return {
        key: issued.key,
        organizationId: issued.organization_id,
        credentialId: issued.credential_id,
      };
    }
  }
}

/** Issues documents through `issue` until one lives in a bucket that moves. */
export async function issueMoving(
  issue: (body: unknown) => Promise<DocumentResultBody>,
): Promise<DocumentResultBody> {
  for (;;) {
    const document = await issue(minimalRequest());
    if (bucketMoves(uuidBucket(document.uuid))) return document;
  }
}

/** A reference starting with `prefix` whose reservation moves in the organization's test environment. */
export function movingReference(
  organizationId: string,
  prefix: string,
): string {
  for (let n = 0; ; n++) {
    const reference = `${prefix}-${n}`;
    const scope = { organizationId, environment: "test" as const };
    if (bucketMoves(referenceBucket(scope, reference))) return reference;
  }
}

/** The first half of the mover's move of a document: copied to its shard among four, not yet deleted from its former one. */
export async function copyDocumentAhead(uuid: string): Promise<void> {
  const bucket = uuidBucket(uuid);
  const all = openShards(env);
  const source = all[shardOfBucket(bucket, FROM)];
  const target = all[shardOfBucket(bucket, all.length)];
  if (!source || !target) throw new Error("no shard");
  const rows = (
    await pageOfTable(source, "documents", 0, {
      rows: 10_000,
      bytes: Number.MAX_SAFE_INTEGER,
    })
  ).filter((row) => row.uuid === uuid);
  await copyRows(target, "documents", rows);
}

/** The whole rebalance from two shards to four, step after step. */
export async function rebalanceAll(): Promise<void> {
  let cursor = null;
  do {
    cursor = (await rebalanceStep(openShards(env), FROM, cursor)).next;
  } while (cursor !== null);
}

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
