import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { groupedDocument, longText } from "../../../fixtures/documents";
import { DEFAULT_MAX_BODY_BYTES } from "../../../src/config";
import { openShards } from "../../../src/db/client";
import { MOVES } from "../../../src/db/rebalance";
import {
  type RebalanceStep,
  rebalanceStep,
} from "../../../src/domain/operations/rebalance-shards";
import {
  newDocumentUuid,
  shardOfBucket,
  uuidBucket,
} from "../../../src/domain/shard-routing";
import { documentsApi } from "../../helpers/documents-api";
import { d1BoundValueLimit } from "../../helpers/faults";
import { opsClient, opsJson } from "../../helpers/ops";
import { FROM, twoShards } from "../../helpers/rebalance";
import { shards } from "../../helpers/shards";
import { callWithClock, fixedClock, HEAVY_TEST_MS } from "../../helpers/worker";

// Documents as large as the API takes, moved from 2 shards to 4 under D1's
// limit on one bound value (src/db/rebalance.ts: a page travels as one JSON
// parameter): pages bounded by the bytes of their bodies never reach it, and
// a page that fails all the same is halved until it moves.

const NOW = Date.now();
const bytes = (value: unknown) =>
  new TextEncoder().encode(JSON.stringify(value)).byteLength;

/** 16 KiB of metadata, its limit: stops with quoted notes. */
function largestMetadata() {
  const stops: { stop: number; note: string }[] = [];
  const next = () => ({ stop: stops.length + 1, note: `"${longText(40)}"` });
  while (bytes({ stops: [...stops, next()] }) <= 16 * 1024) stops.push(next());
  return { stops };
}

/** The largest body the API takes: shipments with the longest texts, as many as fit beside the largest metadata. */
function largestBody() {
  const body = (shipments: number) => ({
    ...groupedDocument(shipments, { longest: true }),
    metadata: largestMetadata(),
  });
  let shipments = 1;
  while (bytes(body(shipments + 1)) <= DEFAULT_MAX_BODY_BYTES.real) {
    shipments++;
  }
  return body(shipments);
}

/** One such document issued on two shards, its key and its stored row. */
async function issueLargest() {
  const response = await opsClient(twoShards)(
    "/ops/v1/keys",
    opsJson("POST", { organization: "Largest", environment: "test" }),
  );
  const { key } = (await response.json()) as { key: string };
  const document = await documentsApi(
    callWithClock(fixedClock(NOW), twoShards),
    key,
  ).issue(largestBody());
  const row = await shards[shardOfBucket(uuidBucket(document.uuid), FROM)]
    ?.prepare("SELECT * FROM documents WHERE uuid = ?")
    .bind(document.uuid)
    .first<Record<string, unknown>>();
  if (!row) throw new Error("not stored");
  return { key, document, row };
}

// Issued once: its PDF takes seconds to render.
let issued: ReturnType<typeof issueLargest> | undefined;
const largest = () => {
  issued ??= issueLargest();
  return issued;
};

/**
 * `count` more of `row` in shard 1 of two, each in a bucket that moves to
 * shard 3 of four (3 + 4n, n from `skip` on): a page of them is all leaving
 * rows, as large as they come.
 */
async function copiesLeavingShard1(
  row: Record<string, unknown>,
  count: number,
  skip: number,
): Promise<string[]> {
  const columns = MOVES.documents.columns;
  const uuids = Array.from({ length: count }, (_, index) =>
    newDocumentUuid(3 + 4 * (skip + index), NOW),
  );
  for (const uuid of uuids) {
    const copy: Record<string, unknown> = { ...row, uuid };
    await env.DB_1.prepare(
      `INSERT INTO documents (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
    )
      .bind(...columns.map((column) => copy[column] ?? null))
      .run();
  }
  return uuids;
}

/** Every step of a pass over `bindings`' shards, until done. */
async function everyStep(bindings: Env): Promise<RebalanceStep[]> {
  const steps: RebalanceStep[] = [];
  let step = await rebalanceStep(openShards(bindings), FROM, null);
  steps.push(step);
  while (step.next !== null && steps.length < 10_000) {
    step = await rebalanceStep(openShards(bindings), FROM, step.next);
    steps.push(step);
  }
  return steps;
}

/** Each copy is in shard 3 only; the first and the last answer as the document they copy. */
async function expectMovedAndServed(uuids: string[]): Promise<void> {
  const { key, document } = await largest();
  const held = await Promise.all(
    shards.map(
      async (db) =>
        (
          await db
            .prepare(
              "SELECT uuid FROM documents WHERE uuid IN (SELECT value FROM json_each(?))",
            )
            .bind(JSON.stringify(uuids))
            .all<{ uuid: string }>()
        ).results.length,
    ),
  );
  expect(held).toEqual([0, 0, 0, uuids.length]);
  const api = documentsApi(callWithClock(fixedClock(NOW)), key);
  for (const uuid of [uuids[0], uuids.at(-1)]) {
    const read = await api.get(uuid ?? "");
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({
      uuid,
      data: document.data,
      metadata: document.metadata,
    });
  }
}

describe("rebalancing documents of the largest size", () => {
  it(
    "moves them in pages that D1 binds, and the service on four shards serves each",
    async () => {
      const uuids = await copiesLeavingShard1((await largest()).row, 40, 0);

      const steps = await everyStep(d1BoundValueLimit());
      expect(steps.flatMap((step) => step.refused)).toEqual([]);
      await expectMovedAndServed(uuids);
    },
    HEAVY_TEST_MS,
  );

  it(
    "halves a page that D1 refuses until it moves",
    async () => {
      const uuids = await copiesLeavingShard1((await largest()).row, 12, 40);

      // A limit below a full page of them, above one document.
      const steps = await everyStep(d1BoundValueLimit(400_000));
      expect(steps.some((step) => step.refused.length > 0)).toBe(true);
      await expectMovedAndServed(uuids);
    },
    HEAVY_TEST_MS,
  );
});
