import { env } from "cloudflare:test";
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
import type { DocumentResultBody } from "./documents-api";
import { opsClient, opsJson } from "./ops";

// A service that ran on the first two of the test's four shards (DB_2 and
// DB_3 hidden), then on four while a rebalance from two runs
// (SHARDS_BEFORE = 2), then on four once it is done.

const SHARDS_BEFORE = 2;

/** The bindings of the service before the rebalance: two shards. */
export const twoShards = {
  ...env,
  DB_2: undefined,
  DB_3: undefined,
} as unknown as Env;

/** `bindings` (all four shards by default) while the rebalance from two runs. */
export const whileMoving = (bindings: Env = env): Env => ({
  ...bindings,
  SHARDS_BEFORE: String(SHARDS_BEFORE),
});

/** Whether a bucket's rows move: its shard among four is not the one among two. */
const bucketMoves = (bucket: number): boolean =>
  shardOfBucket(bucket, 4) !== shardOfBucket(bucket, SHARDS_BEFORE);

/** A key issued on two shards, with its organization; with `homeMoving`, one whose list moves to another home shard. */
export async function keyOnTwoShards(
  organization: string,
  homeMoving = false,
): Promise<{ key: string; organizationId: string }> {
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
      return { key: issued.key, organizationId: issued.organization_id };
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
  const source = all[shardOfBucket(bucket, SHARDS_BEFORE)];
  const target = all[shardOfBucket(bucket, all.length)];
  if (!source || !target) throw new Error("no shard");
  const rows = (await pageOfTable(source, "documents", 0, 10_000)).filter(
    (row) => row.uuid === uuid,
  );
  await copyRows(target, "documents", rows);
}

/** The whole rebalance from two shards to four, step after step. */
export async function rebalanceAll(): Promise<void> {
  let cursor = null;
  do {
    cursor = (await rebalanceStep(openShards(env), SHARDS_BEFORE, cursor)).next;
  } while (cursor !== null);
}
