import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { minimalRequest } from "../../../fixtures/requests";
import { openShards } from "../../../src/db/client";
import {
  copyRows,
  deleteUnchangedRows,
  MOVES,
  pageOfTable,
} from "../../../src/db/rebalance";
import {
  type RebalanceCursor,
  rebalanceStep,
} from "../../../src/domain/operations/rebalance-shards";
import {
  credentialBucket,
  keyBucket,
  newDocumentUuid,
  referenceBucket,
  shardOfBucket,
  uuidBucket,
} from "../../../src/domain/shard-routing";
import {
  type DocumentResultBody,
  deletion,
  documentsApi,
  qrPath,
  sha256Of,
} from "../../helpers/documents-api";
import { gated } from "../../helpers/efti-gate";
import { gateApi } from "../../helpers/gate";
import { opsClient, opsJson } from "../../helpers/ops";
import {
  bucketMoves,
  FROM,
  rebalanceDone,
  twoShards,
} from "../../helpers/rebalance";
import { shards } from "../../helpers/shards";
import { webhookEndpointsApi } from "../../helpers/webhook-endpoints";
import { webhookWorld } from "../../helpers/webhooks";
import {
  type Call,
  callWithClock,
  fixedClock,
  HEAVY_TEST_MS,
} from "../../helpers/worker";

// A rebalance (docs/operations.md): the service ran on the first two of the test's four
// shards (the bindings DB_2 and DB_3 hidden); the rebalance moves every row
// whose bucket now routes elsewhere, and the service on four shards finds
// everything where its routing says, nothing lost or doubled.

const NOW = Date.now();

/** Every row of every moved table in every shard, with the shard it is in. */
async function everyRow() {
  const tables = Object.keys(MOVES);
  const rows: { table: string; shard: number; row: Record<string, unknown> }[] =
    [];
  for (const table of tables) {
    for (const [shard, db] of shards.entries()) {
      const { results } = await db
        .prepare(`SELECT * FROM ${table}`)
        .all<Record<string, unknown>>();
      for (const { id, ...row } of results) {
        // Audit and attempt ids are each shard's own sequence: the rest says the row.
        rows.push({
          table,
          shard,
          row:
            MOVES[table as keyof typeof MOVES].onConflict === ""
              ? row
              : { id, ...row },
        });
      }
    }
  }
  return rows;
}

const credentialEnvironments = async () =>
  new Map(
    (await everyRow())
      .filter(({ table }) => table === "credentials")
      .map(({ row }) => [row.id, row.environment]),
  );

/** The shard each row's routing names among all four shards. */
function routedShard(
  table: string,
  row: Record<string, unknown>,
  environments: Map<unknown, unknown>,
): number {
  const text = (column: string) => String(row[column]);
  const home = () =>
    credentialBucket({ id: text("credential_id"), environment: "test" });
  const bucket = {
    credentials: () => keyBucket(text("key_hash"), row.environment as "test"),
    reference_reservations: () =>
      referenceBucket(
        {
          organizationId: text("organization_id"),
          environment: row.environment as "test",
        },
        text("reference"),
      ),
    documents: () => uuidBucket(text("uuid")),
    audit_events: () => uuidBucket(text("document_uuid")),
    efti_reads: () => uuidBucket(text("document_uuid")),
    pending_pdf_objects: () =>
      uuidBucket(text("object_key").slice("documents/".length, -4)),
    pending_deletion_marks: () => uuidBucket(text("document_uuid")),
    document_summaries: () =>
      credentialBucket({
        id: text("credential_id"),
        environment: environments.get(row.credential_id) as "test",
      }),
    efti_follow_ups: () => uuidBucket(text("document_uuid")),
    event_outbox: () => uuidBucket(text("document_uuid")),
    efti_registrations: () => uuidBucket(text("document_uuid")),
    events: () => home(),
    webhook_endpoints: () => home(),
    webhook_deliveries: () => home(),
    webhook_attempts: () => home(),
  }[table];
  if (!bucket) throw new Error(table);
  return shardOfBucket(bucket(), shards.length);
}

const sorted = (rows: Awaited<ReturnType<typeof everyRow>>) =>
  rows.map(({ table, row }) => JSON.stringify({ table, row })).sort();

/** A live document answers by uuid, by its QR link (its own bytes) and by reference, whose same body is its retry. */
async function expectServed(
  request: Call,
  key: string,
  document: DocumentResultBody,
): Promise<void> {
  const api = documentsApi(request, key);
  expect((await api.get(document.uuid)).status).toBe(200);
  const pdf = await request(qrPath(document.url));
  expect(pdf.status).toBe(200);
  expect(await sha256Of(await pdf.arrayBuffer())).toBe(document.pdf.sha256);
  if (!document.reference) return;
  expect((await api.get(`ref/${document.reference}`)).status).toBe(200);
  const retry = await api.create({
    ...minimalRequest(),
    reference: document.reference,
  });
  expect(retry.status).toBe(200);
  expect(((await retry.json()) as DocumentResultBody).uuid).toBe(document.uuid);
}

/** How many documents a key's list counts. */
const listTotal = async (request: Call, key: string): Promise<number> =>
  (
    (await (await documentsApi(request, key).list()).json()) as {
      meta: { total: number };
    }
  ).meta.total;

/** Every row of every moved table is in the shard its routing names among four. */
async function expectEveryRowRouted(): Promise<void> {
  const environments = await credentialEnvironments();
  for (const { table, shard, row } of await everyRow()) {
    expect({ table, row, shard }).toEqual({
      table,
      row,
      shard: routedShard(table, row, environments),
    });
  }
}

/** Steps from `cursor` until done, or `limit` steps; the cursor reached. */
async function runSteps(
  cursor: RebalanceCursor | null,
  limit = Number.POSITIVE_INFINITY,
): Promise<{ cursor: RebalanceCursor | null; moved: number }> {
  let at = cursor;
  let moved = 0;
  for (let step = 0; step < limit; step++) {
    const result = await rebalanceStep(openShards(env), FROM, at);
    moved += result.moved;
    at = result.next;
    if (at === null) break;
  }
  return { cursor: at, moved };
}

/** Whether a credential's list lives in another shard among four than among two. */
const homeMoves = (credentialId: string): boolean =>
  shardOfBucket(
    credentialBucket({ id: credentialId, environment: "test" }),
    4,
  ) >= FROM;

/** What two shards' service issued: keys, documents with references, a correction, a deletion, a QR access, leftovers. */
async function issueOnTwoShards(tag: string) {
  const ops = opsClient(twoShards);
  const keys: string[] = [];
  let listsMoving = 0;
  // At least four keys, and one whose list moves to another home shard.
  while (keys.length < 4 || listsMoving === 0) {
    const response = await ops(
      "/ops/v1/keys",
      opsJson("POST", {
        organization: `Rebalance ${keys.length} ${tag}`,
        // Live: their documents are registered with the gate and read by it.
        environment: "live",
      }),
    );
    const issued = (await response.json()) as {
      key: string;
      credential_id: string;
    };
    keys.push(issued.key);
    if (homeMoves(issued.credential_id)) listsMoving++;
  }
  // Every table gets rows: each key has a webhook endpoint (its events,
  // deliveries and attempts written by the queue's consumer), an eFTI gate
  // is configured (registrations) and sends a follow-up.
  const world = webhookWorld(NOW);
  const bindings = gated(twoShards);
  const request = world.request(bindings);
  const documents: { key: string; document: DocumentResultBody }[] = [];
  for (const [index, key] of keys.entries()) {
    await webhookEndpointsApi(request, key).register();
    const api = documentsApi(request, key);
    for (let n = 0; n < 4; n++) {
      const body = {
        ...minimalRequest(),
        reference: `REB-${tag}-${index}-${n}`,
      };
      documents.push({ key, document: await api.issue(body) });
    }
    documents.push({ key, document: await api.issue(minimalRequest()) });
  }
  const [first, second, third] = documents as [
    (typeof documents)[0],
    (typeof documents)[0],
    (typeof documents)[0],
  ];
  const corrected = await documentsApi(request, first.key).rectify(
    first.document.uuid,
    { ...minimalRequest(), reference: `REB-${tag}-corrected` },
  );
  expect(corrected.status).toBe(200);
  expect(
    (await documentsApi(request, second.key).remove(second.document.uuid))
      .status,
  ).toBe(204);
  expect((await request(qrPath(third.document.url))).status).toBe(200);
  await world.consumeDue(bindings);
  // Neither corrected nor deleted.
  const moving = documents
    .slice(3)
    .find(({ document }) => bucketMoves(uuidBucket(document.uuid)));
  if (!moving) throw new Error("no document in a bucket that moves");
  const efti = (await (
    await documentsApi(request, moving.key).efti(moving.document.uuid)
  ).json()) as { data: { dataset_id: string }[] };
  const followUp = await gateApi(request, "198.51.100.7").followUp(
    efti.data[0]?.dataset_id ?? "",
    "Sin incidencias",
    "text/plain",
    { "X-Request-Id": "gate-request-1" },
  );
  expect(followUp.status).toBe(200);
  // Leftovers of a Worker that died: a note and a mark in bucket 3 (shard 1
  // of two, shard 3 of four).
  const orphan = newDocumentUuid(3, NOW);
  await env.DB_1.prepare(
    "INSERT INTO pending_pdf_objects (object_key, created_at) VALUES (?, ?)",
  )
    .bind(`documents/${orphan}.pdf`, NOW)
    .run();
  await env.DB_1.prepare(
    "INSERT INTO pending_deletion_marks (document_uuid, created_at) VALUES (?, ?)",
  )
    .bind(newDocumentUuid(3, NOW), NOW)
    .run();
  return {
    documents,
    corrected: (await corrected.json()) as DocumentResultBody,
    deleted: second.document.uuid,
  };
}

describe("rebalance from 2 to 4 shards", () => {
  it(
    "moves every row to its routed shard, keeps each once, and the service on four shards finds all of it",
    async () => {
      const issued = await issueOnTwoShards("steps");
      const before = await everyRow();
      expect(before.some(({ shard }) => shard >= FROM)).toBe(false);
      // Every table the mover moves has rows that move.
      const environments = await credentialEnvironments();
      expect(
        Object.keys(MOVES).filter(
          (table) =>
            !before.some(
              (row) =>
                row.table === table &&
                routedShard(table, row.row, environments) >= FROM,
            ),
        ),
      ).toEqual([]);

      // Interrupted after a few steps, then resumed from its cursor.
      const partial = await runSteps(null, 5);
      expect(partial.cursor).not.toBeNull();
      const rest = await runSteps(partial.cursor);
      expect(partial.moved + rest.moved).toBeGreaterThan(0);

      const after = await everyRow();
      expect(sorted(after)).toEqual(sorted(before));
      await expectEveryRowRouted();
      expect(after.some(({ shard }) => shard >= FROM)).toBe(true);

      // Run again from the start: nothing moves, nothing changes.
      expect((await runSteps(null)).moved).toBe(0);
      expect(sorted(await everyRow())).toEqual(sorted(after));

      const request = callWithClock(fixedClock(NOW + 60_000));
      for (const { key, document } of issued.documents) {
        if (document.uuid === issued.deleted) {
          const read = await documentsApi(request, key).get(document.uuid);
          expect(read.status).toBe(404);
        } else {
          await expectServed(request, key, document);
        }
      }
      const { key } = issued.documents[0] ?? { key: "" };
      const list = await documentsApi(request, key).list();
      expect(list.status).toBe(200);
      expect(
        ((await list.json()) as { data: { uuid: string }[] }).data.map(
          (entry) => entry.uuid,
        ),
      ).toContain(issued.corrected.uuid);
    },
    HEAVY_TEST_MS,
  );

  it(
    "keeps a write that reached the old copy while the row was being moved",
    async () => {
      const request = callWithClock(fixedClock(NOW), twoShards);
      const response = await opsClient(twoShards)(
        "/ops/v1/keys",
        opsJson("POST", {
          organization: `Rebalance race ${NOW}`,
          environment: "test",
        }),
      );
      const { key } = (await response.json()) as { key: string };
      const api = documentsApi(request, key);
      // A document in a bucket that moves: shard 1 of two, shard 3 of four.
      let document: DocumentResultBody;
      do document = await api.issue(minimalRequest());
      while (shardOfBucket(uuidBucket(document.uuid), 4) < FROM);
      const source =
        openShards(twoShards)[shardOfBucket(uuidBucket(document.uuid), FROM)];
      const target =
        openShards(env)[shardOfBucket(uuidBucket(document.uuid), 4)];
      if (!source || !target) throw new Error("no shard");

      const page = (
        await pageOfTable(source, "documents", 0, {
          rows: 1000,
          bytes: 1_000_000,
        })
      ).filter((row) => row.uuid === document.uuid);
      await copyRows(target, "documents", page);
      // Deleted on the old copy after it was copied: the delete of the
      // move refuses a row no longer as read.
      expect((await api.remove(document.uuid, deletion())).status).toBe(204);
      expect(await deleteUnchangedRows(source, "documents", page)).toEqual([]);

      await runSteps(null);
      const rows = await Promise.all(
        shards.map((db) =>
          db
            .prepare("SELECT deleted_at FROM documents WHERE uuid = ?")
            .bind(document.uuid)
            .all<{ deleted_at: number | null }>(),
        ),
      );
      expect(rows.map(({ results }) => results.length)).toEqual(
        shards.map((_, shard) =>
          shard === shardOfBucket(uuidBucket(document.uuid), 4) ? 1 : 0,
        ),
      );
      expect(rows.flatMap(({ results }) => results)[0]?.deleted_at).toBe(NOW);
      const read = await documentsApi(callWithClock(fixedClock(NOW)), key).get(
        document.uuid,
      );
      expect(read.status).toBe(404);
    },
    HEAVY_TEST_MS,
  );

  it(
    "runs as a job: started through the operations API, its alarms move everything, its progress says done",
    async () => {
      await issueOnTwoShards("job");
      const ops = opsClient({ ...env, SHARDS_BEFORE: String(FROM) } as Env);
      expect((await ops("/ops/v1/shards/rebalance")).status).toBe(404);
      const started = await ops(
        "/ops/v1/shards/rebalance",
        opsJson("POST", { from: FROM }),
      );
      expect(started.status).toBe(202);
      expect(await started.json()).toMatchObject({
        from: 2,
        to: 4,
        state: "running",
      });
      // Moved on by its own alarms; while running, its next one is set.
      await rebalanceDone();
      const progress = await ops("/ops/v1/shards/rebalance");
      expect(progress.status).toBe(200);
      const body = (await progress.json()) as {
        state: string;
        moved: Record<string, number>;
        cursor: unknown;
      };
      expect(body.state).toBe("done");
      expect(body.cursor).toBeNull();
      expect(body.moved.documents).toBeGreaterThan(0);
      await expectEveryRowRouted();
    },
    HEAVY_TEST_MS,
  );
});

describe("while a rebalance runs (SHARDS_BEFORE set)", () => {
  const moving = { ...env, SHARDS_BEFORE: String(FROM) } as Env;

  /** Steps until the job is about to move `table`. */
  async function stepUntil(
    table: RebalanceCursor["table"],
    cursor: RebalanceCursor | null,
  ): Promise<RebalanceCursor | null> {
    let at = cursor;
    while (at?.table !== table) {
      at = (await rebalanceStep(openShards(env), FROM, at)).next;
    }
    return at;
  }

  it(
    "finds keys, references and documents wherever they are, and a deletion, a correction and a QR access reach the row",
    async () => {
      const issued = await issueOnTwoShards("moving");
      const request = callWithClock(fixedClock(NOW + 60_000), moving);
      const keys = [...new Set(issued.documents.map(({ key }) => key))];

      // Credentials not moved yet: every key authenticates.
      let cursor = await stepUntil("credentials", null);
      for (const key of keys) {
        expect((await documentsApi(request, key).list()).status).toBe(200);
      }

      // Credentials and reservations moved, documents not yet.
      cursor = await stepUntil("documents", cursor);
      // Lists not moved yet: read in both home shards, each entry once.
      const listed = new Map<string, number>();
      for (const key of keys) {
        const expected =
          issued.documents.filter(
            (entry) =>
              entry.key === key && entry.document.uuid !== issued.deleted,
          ).length + (key === issued.documents[0]?.key ? 1 : 0);
        expect(await listTotal(request, key)).toBe(expected);
        listed.set(key, expected);
      }
      const inFormer = issued.documents.filter(
        ({ document }) =>
          document.uuid !== issued.deleted &&
          shardOfBucket(uuidBucket(document.uuid), 4) >= FROM,
      );
      expect(inFormer.length).toBeGreaterThan(2);
      // Without SHARDS_BEFORE the service would not find them.
      const [first] = inFormer;
      if (!first) throw new Error("none");
      expect(
        (
          await documentsApi(
            callWithClock(fixedClock(NOW + 60_000)),
            first.key,
          ).get(first.document.uuid)
        ).status,
      ).toBe(404);
      const [, toDelete, toCorrect, toOpen] = inFormer as [
        (typeof inFormer)[0],
        (typeof inFormer)[0],
        (typeof inFormer)[0],
        (typeof inFormer)[0] | undefined,
      ];
      // Served (their QR links opened) all but the two deleted and corrected below.
      for (const { key, document } of inFormer) {
        if (document !== toDelete.document && document !== toCorrect.document) {
          await expectServed(request, key, document);
        }
      }
      expect(
        (
          await documentsApi(request, toDelete.key).remove(
            toDelete.document.uuid,
          )
        ).status,
      ).toBe(204);
      const correction = await documentsApi(request, toCorrect.key).rectify(
        toCorrect.document.uuid,
        { ...minimalRequest(), reference: "REB-moving-fixed" },
      );
      expect(correction.status).toBe(200);
      const corrected = (await correction.json()) as DocumentResultBody;
      if (toOpen) {
        expect((await request(qrPath(toOpen.document.url))).status).toBe(200);
      }

      await runSteps(cursor);
      const after = callWithClock(fixedClock(NOW + 120_000));
      listed.set(toDelete.key, (listed.get(toDelete.key) ?? 0) - 1);
      listed.set(toCorrect.key, (listed.get(toCorrect.key) ?? 0) + 1);
      for (const [key, total] of listed) {
        expect(await listTotal(after, key)).toBe(total);
      }
      expect(
        (await documentsApi(after, toDelete.key).get(toDelete.document.uuid))
          .status,
      ).toBe(404);
      const original = await documentsApi(after, toCorrect.key).get(
        toCorrect.document.uuid,
      );
      expect(original.status).toBe(200);
      expect(
        (await documentsApi(after, toCorrect.key).get(corrected.uuid)).status,
      ).toBe(200);
      if (toOpen) {
        // Accessed by its QR link: no longer deletable.
        expect(
          (await documentsApi(after, toOpen.key).remove(toOpen.document.uuid))
            .status,
        ).toBe(409);
      }
      await expectEveryRowRouted();
    },
    HEAVY_TEST_MS,
  );
});
