import {
  createExecutionContext,
  createScheduledController,
  env,
} from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { minimalRequest } from "../../fixtures/requests";
import {
  CRON_QUERY_LIMIT,
  CRON_QUERY_SHARES,
  QueryBudget,
} from "../../src/domain/cron-budget";
import { archiveDocuments } from "../../src/domain/documents/archive-documents";
import { purgeOldEvents } from "../../src/domain/events/purge-events";
import {
  announceLostEvents,
  resendLostDeliveries,
} from "../../src/domain/events/recover";
import { EVENT_RETENTION_DAYS } from "../../src/domain/events/retention";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import { createScheduledHandler } from "../../src/scheduled";
import type { EventMessage } from "../../src/schemas/event-message";
import { createServices } from "../../src/services";
import { countingD1Queries } from "../helpers/counting-bindings";
import { documentsApi, withIssuedDocument } from "../helpers/documents-api";
import { rowsOfAllShards, shardOf, shards } from "../helpers/shards";
import { callWithClock, HEAVY_TEST_MS } from "../helpers/worker";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 21, 9);
const DELETED_AT = NOW + HOUR;
const CRON_AT = NOW + 3 * HOUR;

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * `count` copies of `template` in `shard`'s documents, the columns of `set`
 * computed from the copy's number `i` (SQL), in one statement.
 */
async function copies(
  shard: D1Database,
  template: Record<string, unknown>,
  count: number,
  set: Record<string, string>,
): Promise<void> {
  const columns = Object.keys(template);
  const kept = columns.filter((column) => !(column in set));
  await shard
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
       INSERT INTO documents (${columns.join(", ")})
       SELECT ${columns.map((column) => set[column] ?? "?").join(", ")} FROM n`,
    )
    .bind(...kept.map((column) => template[column]))
    .run();
}

const count = async (sql: string) =>
  (await rowsOfAllShards<{ n: number }>(sql)).reduce(
    (sum, row) => sum + row.n,
    0,
  );

describe("the cron with every task's backlog beyond its share", () => {
  it("archives within the archiver's share, whatever is due", async () => {
    const { document } = await withIssuedDocument(NOW);
    const shard = shardOf(document.uuid);
    const template = (await shard
      .prepare("SELECT * FROM documents WHERE uuid = ?")
      .bind(document.uuid)
      .first()) as Record<string, unknown>;
    // Uuids of their own: the tests of a file share its storage.
    await copies(shard, template, 500, {
      uuid: "'archive-share-' || i",
      reference: "NULL",
      created_at: String(NOW - 2 * DAY),
    });
    const counted = countingD1Queries(env);
    const services = createServices(counted.bindings, {
      clock: { now: () => CRON_AT },
      renderPdf: renderDocumentPdf,
    });
    const share = 30;
    const report = await archiveDocuments(services, new QueryBudget(share));
    expect(counted.queries()).toBeLessThanOrEqual(share);
    expect(report.documents).toBeGreaterThan(0);
    expect(report.documents).toBeLessThan(500);
  });

  it(
    "finishes the deletions first, stays within an invocation's 1,000 D1 queries and logs which tasks ran out of their share",
    async () => {
      vi.spyOn(console, "error").mockImplementation(() => {});
      const logged = vi.spyOn(console, "log").mockImplementation(() => {});
      // Deletions whose marks wait for the cron: their objects do not say
      // "deleted" yet.
      const deleted: string[] = [];
      const { clock, owner, document } = await withIssuedDocument(NOW);
      const api = documentsApi(callWithClock(clock), owner.key);
      for (let i = 0; i < 3; i++)
        deleted.push((await api.issue(minimalRequest())).uuid);
      deleted.push(document.uuid);
      clock.set(DELETED_AT);
      for (const uuid of deleted) {
        expect((await api.remove(uuid)).status).toBe(204);
      }

      const template = (await shardOf(document.uuid)
        .prepare("SELECT * FROM documents WHERE uuid = ?")
        .bind(document.uuid)
        .first()) as Record<string, unknown>;
      for (const [index, shard] of shards.entries()) {
        // Issues that never finished: more than twenty full rounds a shard.
        await shard
          .prepare(
            `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1100)
             INSERT INTO pending_pdf_objects (object_key, created_at)
             SELECT 'documents/orphan-${index}-' || i || '.pdf', ? FROM n`,
          )
          .bind(NOW)
          .run();
      }
      // Documents past the read window (its share would take 6,000: the
      // archiver's own test below fills it beyond).
      await copies(shardOf(document.uuid), template, 300, {
        uuid: "'archive-budget-' || i",
        reference: "NULL",
        created_at: String(NOW - 2 * DAY),
        deleted_at: "NULL",
      });
      // An expired demo session's documents: more than the purge's share.
      await copies(shards[0] as D1Database, template, 1100, {
        uuid: "'demo-' || i",
        reference: "NULL",
        environment: "'demo'",
        expires_at: String(NOW),
        deleted_at: "NULL",
      });

      // Calls of the operations API past their retention: beyond its share.
      await (shards[0] as D1Database)
        .prepare(
          `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 6000)
           INSERT INTO ops_calls (request_id, operation, client_ip, key_version, status, started_at, finished_at)
           SELECT 'old-call-' || i, 'GET /ops/v1/keys', '198.51.100.4', 'v1', 200, 0, 0 FROM n`,
        )
        .run();

      const counted = countingD1Queries(env);
      await createScheduledHandler({
        clock: { now: () => CRON_AT },
        renderPdf: renderDocumentPdf,
      })(
        createScheduledController(),
        counted.bindings,
        createExecutionContext(),
      );

      expect(counted.queries()).toBeLessThanOrEqual(CRON_QUERY_LIMIT);
      expect(
        await count("SELECT count(*) AS n FROM pending_deletion_marks"),
      ).toBe(0);
      clock.set(CRON_AT);
      expect(await (await api.list()).json()).toMatchObject({ data: [] });
      for (const uuid of deleted) {
        const object = await env.PDFS.head(`documents/${uuid}.pdf`);
        expect(object?.customMetadata?.deleted_at).toBe(String(DELETED_AT));
      }
      // The others did some of their work, and left some.
      const notes = await count(
        "SELECT count(*) AS n FROM pending_pdf_objects",
      );
      expect(notes).toBeGreaterThan(0);
      expect(notes).toBeLessThan(4 * 1100);
      const unarchived = await count(
        "SELECT count(*) AS n FROM documents WHERE uuid LIKE 'archive-%' AND archived_at IS NULL",
      );
      expect(unarchived).toBe(0);
      const demo = await count(
        "SELECT count(*) AS n FROM documents WHERE uuid LIKE 'demo-%'",
      );
      expect(demo).toBeGreaterThan(0);
      expect(demo).toBeLessThan(1100);
      const calls = await count(
        "SELECT count(*) AS n FROM ops_calls WHERE request_id LIKE 'old-call-%'",
      );
      expect(calls).toBeGreaterThan(0);
      expect(calls).toBeLessThan(6000);
      const report = logged.mock.calls
        .map(([line]) => JSON.parse(String(line)))
        .find((line) => line.event === "scheduled_cleanup");
      expect(report?.out_of_budget).toEqual([
        "orphan_pdfs",
        "demo_sessions",
        "ops_calls",
      ]);
    },
    HEAVY_TEST_MS,
  );

  it("sends lost events' and deliveries' messages and purges old events within their shares, in every shard", async () => {
    const rows = (table: string, count: number, values: string) =>
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
       INSERT INTO ${table} SELECT ${values} FROM n`;
    const lostAt = CRON_AT - 10 * 60_000;
    const oldAt = CRON_AT - (EVENT_RETENTION_DAYS + 1) * DAY;
    for (const [index, shard] of shards.entries()) {
      // Each shard: announcements lost, delivery messages lost, old events,
      // more of each than one run takes.
      await shard.batch([
        shard.prepare(
          rows(
            "event_outbox",
            150,
            `'evt_lost_${index}_' || i, 'document.issued', 'cred_budget', 'test', ${lostAt},
             'lost-${index}-' || i, NULL, NULL, ${lostAt}, '2026-11-21', NULL, NULL, NULL,
             NULL, NULL, NULL, NULL`,
          ),
        ),
        shard.prepare(
          rows(
            "webhook_deliveries",
            600,
            `'evt_due_${index}_' || i, 'we_budget', 'cred_budget', 'pending', 1, ${lostAt}, ${lostAt}, ${lostAt}, NULL`,
          ),
        ),
        shard.prepare(
          rows(
            "events",
            3000,
            `'evt_old_${index}_' || i, 'document.issued', 'cred_budget', 'test', ${oldAt},
             NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL`,
          ),
        ),
      ]);
    }
    const sent: EventMessage[] = [];
    const counted = countingD1Queries({
      ...env,
      EVENTS: {
        sendBatch: async (
          batch: Iterable<MessageSendRequest<EventMessage>>,
        ) => {
          for (const message of batch) sent.push(message.body);
        },
      } as unknown as Queue,
    });
    const services = createServices(counted.bindings, {
      clock: { now: () => CRON_AT },
      renderPdf: renderDocumentPdf,
    });
    const queriesOf = async (task: () => Promise<unknown>) => {
      const before = counted.queries();
      await task();
      return counted.queries() - before;
    };

    const share = CRON_QUERY_SHARES;
    expect(
      await queriesOf(() =>
        announceLostEvents(services, new QueryBudget(share.lostEvents)),
      ),
    ).toBeLessThanOrEqual(share.lostEvents);
    const relayed = sent.flatMap((message) =>
      message.kind === "outbox" ? message.documentUuids : [],
    );
    // One read a shard, each taking part of its backlog (and of the other
    // tests' events, older).
    expect(relayed.length).toBeLessThanOrEqual(shards.length * 100);
    for (const [index] of shards.entries()) {
      const mine = relayed.filter((uuid) => uuid.startsWith(`lost-${index}-`));
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.length).toBeLessThan(150);
    }

    sent.length = 0;
    expect(
      await queriesOf(() =>
        resendLostDeliveries(services, new QueryBudget(share.lostDeliveries)),
      ),
    ).toBeLessThanOrEqual(share.lostDeliveries);
    expect(sent).toHaveLength(shards.length * 500);

    expect(
      await queriesOf(() =>
        purgeOldEvents(services, new QueryBudget(share.eventPurge)),
      ),
    ).toBeLessThanOrEqual(share.eventPurge);
    const left = await Promise.all(
      shards.map(
        async (shard) =>
          (
            await shard
              .prepare("SELECT count(*) AS n FROM events WHERE created_at = ?")
              .bind(oldAt)
              .first<{ n: number }>()
          )?.n ?? 0,
      ),
    );
    // Every shard purged in turn, and the rest left to the next run.
    for (const count of left) expect(count).toBeLessThanOrEqual(1000);
    expect(left.reduce((sum, count) => sum + count, 0)).toBeGreaterThan(0);
  });
});
