import {
  createExecutionContext,
  createScheduledController,
  env,
} from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fullRequest } from "../../fixtures/requests";
import { fixtureSeal } from "../../fixtures/seal";
import { openShards } from "../../src/db/client";
import { documentAudit } from "../../src/domain/operations/audit-trail";
import { homeShard } from "../../src/domain/shard-routing";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import { createScheduledHandler } from "../../src/scheduled";
import type { ArchivedDocument } from "../../src/schemas/archived-document";
import { isDocumentLocale } from "../../src/schemas/document-locale";
import type { DocumentData } from "../../src/schemas/document-request";
import {
  archiveObjectKey,
  createArchiveStore,
  openArchive,
} from "../../src/storage/archive-store";
import { parseKeyring } from "../../src/storage/keyring";
import {
  comparable,
  type DocumentResultBody,
  qrPath,
  sha256Of,
  withIssuedDocument,
} from "../helpers/documents-api";
import { d1WritesDown } from "../helpers/faults";
import { shardOf, shards } from "../helpers/shards";
import { fixedClock } from "../helpers/worker";

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 21, 7);
// The first moment the archiver takes a document issued at NOW.
const DUE = NOW + 25 * HOUR + 1;

afterEach(() => {
  vi.restoreAllMocks();
});

/** One run of the cron at `at`, on `bindings`; its log lines by event. */
async function runCron(at: number, bindings: Env = env) {
  const logs = vi.spyOn(console, "log").mockImplementation(() => {});
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  await createScheduledHandler({
    clock: fixedClock(at),
    renderPdf: renderDocumentPdf,
  })(createScheduledController(), bindings, createExecutionContext());
  const lines = [...logs.mock.calls, ...errors.mock.calls].map(
    ([line]) => JSON.parse(line) as Record<string, unknown>,
  );
  logs.mockRestore();
  errors.mockRestore();
  return lines;
}

/** Whether a credential's list still holds a document. */
const listed = async (credentialId: string, uuid: string) =>
  (await homeShard(shards, { id: credentialId, environment: "test" })
    .prepare("SELECT uuid FROM document_summaries WHERE uuid = ?")
    .bind(uuid)
    .first()) !== null;

const documentRow = (uuid: string) =>
  shardOf(uuid)
    .prepare("SELECT data, metadata, archived_at FROM documents WHERE uuid = ?")
    .bind(uuid)
    .first<{
      data: string | null;
      metadata: string | null;
      archived_at: number | null;
    }>();

const d1Events = async (uuid: string) =>
  (
    await shardOf(uuid)
      .prepare(
        "SELECT id, type, occurred_at FROM audit_events WHERE document_uuid = ? ORDER BY id",
      )
      .bind(uuid)
      .all<{ id: number; type: string; occurred_at: number }>()
  ).results;

/** The archive in R2, decrypted here with the test keyring (vitest.config.ts). */
async function archiveOf(uuid: string): Promise<ArchivedDocument | null> {
  const object = await env.PDFS.get(archiveObjectKey(uuid));
  if (!object) return null;
  return openArchive(
    parseKeyring(env.PDF_KEYRING, "PDF_KEYRING"),
    uuid,
    new Uint8Array(await object.arrayBuffer()),
  );
}

/**
 * Bytes of a document's row (every column's stored value) and of its
 * entries in the indexes that hold it once archived (the primary key's and
 * the correction's, each with its 8-byte rowid).
 */
async function slimRowBytes(uuid: string): Promise<number> {
  const { results: columns } = await shardOf(uuid)
    .prepare("SELECT name FROM pragma_table_info('documents')")
    .all<{ name: string }>();
  const row = columns
    .map(({ name }) => `coalesce(length(CAST("${name}" AS BLOB)), 0)`)
    .join(" + ");
  const indexes = "length(uuid) + 8 + coalesce(length(rectifies_uuid), 0) + 8";
  const bytes = await shardOf(uuid)
    .prepare(
      `SELECT ${row} + ${indexes} AS bytes FROM documents WHERE uuid = ?`,
    )
    .bind(uuid)
    .first<number>("bytes");
  if (bytes === null) throw new Error(`no row for ${uuid}`);
  return bytes;
}

describe("the archiver", () => {
  it("moves a document's body and audit trail to R2 once it is 25 hours old, leaving a slim row", async () => {
    const { request, owner, document } = await withIssuedDocument(NOW);
    expect(await listed(owner.id, document.uuid)).toBe(true);
    // A QR access adds a second event to the trail.
    expect((await request(qrPath(document.url))).status).toBe(200);
    const hot = await documentRow(document.uuid);
    // The measure sees the body: the same row is larger while hot.
    expect(await slimRowBytes(document.uuid)).toBeGreaterThan(1024);
    const trail = await d1Events(document.uuid);
    expect(trail.map((event) => event.type)).toEqual(["issued", "qr_accessed"]);

    const lines = await runCron(DUE);

    expect(await documentRow(document.uuid)).toEqual({
      data: null,
      metadata: null,
      archived_at: DUE,
    });
    expect(await d1Events(document.uuid)).toEqual([]);
    const archived = await archiveOf(document.uuid);
    expect(archived).toEqual({
      uuid: document.uuid,
      data: hot?.data,
      metadata: hot?.metadata,
      auditEvents: trail.map((event) => ({
        id: event.id,
        type: event.type,
        credentialId: event.type === "issued" ? expect.any(String) : null,
        requestId: expect.any(String),
        occurredAt: event.occurred_at,
      })),
    });
    expect(JSON.parse(archived?.data ?? "")).toEqual(document.data);
    expect(await slimRowBytes(document.uuid)).toBeLessThan(1024);
    expect(await listed(owner.id, document.uuid)).toBe(false);
    const report = lines.find((line) => line.event === "scheduled_cleanup");
    expect(report?.archive).toEqual({
      documents: expect.toSatisfy((count: number) => count >= 1),
      summaries: expect.any(Number),
    });
  });

  it("leaves a document younger than 25 hours as it is", async () => {
    const { owner, document } = await withIssuedDocument(NOW + 2 * HOUR);
    const hot = await documentRow(document.uuid);
    const trail = await d1Events(document.uuid);

    await runCron(DUE + 2 * HOUR - 1);

    expect(await documentRow(document.uuid)).toEqual(hot);
    expect(hot?.data).not.toBeNull();
    expect(await d1Events(document.uuid)).toEqual(trail);
    expect(await env.PDFS.head(archiveObjectKey(document.uuid))).toBeNull();
    expect(await listed(owner.id, document.uuid)).toBe(true);
  });

  it("keeps the QR link serving the same PDF", async () => {
    const { request, document } = await withIssuedDocument(NOW);
    await runCron(DUE);
    expect((await documentRow(document.uuid))?.archived_at).toBe(DUE);

    const response = await request(qrPath(document.url));
    expect(response.status).toBe(200);
    expect(await sha256Of(await response.arrayBuffer())).toBe(
      document.pdf.sha256,
    );
  });

  it("answers a create retry with the same reference exactly as before archiving", async () => {
    const { clock, api, document } = await withIssuedDocument(NOW);
    const changed = fullRequest();
    changed.goods.weight_kg = "13000";
    clock.set(DUE);
    const identicalBefore = await comparable(await api.create(fullRequest()));
    const changedBefore = await comparable(await api.create(changed));

    await runCron(DUE);
    expect((await documentRow(document.uuid))?.archived_at).toBe(DUE);

    expect(await comparable(await api.create(fullRequest()))).toEqual(
      identicalBefore,
    );
    expect(await comparable(await api.create(changed))).toEqual(changedBefore);
    expect(identicalBefore.status).toBe(409);
    expect(JSON.parse(identicalBefore.body).errors[0].code).toBe(
      "DOCUMENT_WINDOW_EXPIRED",
    );
    expect(JSON.parse(changedBefore.body).errors[0].code).toBe(
      "REFERENCE_CONFLICT",
    );
  });

  // As in rectify.test.ts: the stored PDF is the renderer's output for the
  // correction with the archived version's data, whose printed change list
  // the pdf project reads back.
  it("issues a correction of an archived document whose PDF shows what changed", async () => {
    const { clock, api, document: original } = await withIssuedDocument(NOW);
    await runCron(DUE);
    expect((await documentRow(original.uuid))?.data).toBeNull();

    clock.set(DUE + 60_000);
    const body = fullRequest();
    body.reference = "PED-2026-0001-B";
    body.goods.weight_kg = "13000";
    const response = await api.rectify(original.uuid, body);
    expect(response.status).toBe(200);
    const correction = (await response.json()) as DocumentResultBody;
    const stored = new Uint8Array(
      await (await api.pdf(correction.uuid)).arrayBuffer(),
    );

    const locale = correction.document_locale;
    if (!isDocumentLocale(locale)) throw new Error(`locale ${locale}`);
    const data = correction.data as DocumentData;
    const rendered = async (previous: DocumentData) =>
      (
        await renderDocumentPdf({
          data,
          uuid: correction.uuid,
          createdAt: Date.parse(correction.created_at),
          rectifies: { uuid: original.uuid, data: previous },
          qrUrl: correction.url,
          // The test environment's seal of the tests' SEAL_KEYRING.
          seal: fixtureSeal("test"),
          locale,
          environment: "test",
        })
      ).bytes;
    expect(stored).toEqual(await rendered(original.data as DocumentData));
    expect(stored).not.toEqual(await rendered(data));
  });
});

describe("the archiver stopped or repeated", () => {
  it("loses nothing when the D1 update fails after the R2 put, and the next run completes", async () => {
    const { document } = await withIssuedDocument(NOW);
    const hot = await documentRow(document.uuid);
    const trail = await d1Events(document.uuid);

    const lines = await runCron(DUE, d1WritesDown());

    expect(lines).toContainEqual(
      expect.objectContaining({
        event: "scheduled_cleanup_failed",
        task: "archive",
      }),
    );
    expect(await env.PDFS.head(archiveObjectKey(document.uuid))).not.toBeNull();
    expect(await documentRow(document.uuid)).toEqual(hot);
    expect(await d1Events(document.uuid)).toEqual(trail);

    await runCron(DUE + HOUR);
    expect(await documentRow(document.uuid)).toEqual({
      data: null,
      metadata: null,
      archived_at: DUE + HOUR,
    });
    expect(await d1Events(document.uuid)).toEqual([]);
    const archived = await archiveOf(document.uuid);
    expect(archived?.data).toBe(hot?.data);
    expect(archived?.auditEvents.map((event) => event.id)).toEqual(
      trail.map((event) => event.id),
    );
  });

  it("writes an archive once: a later run takes the stored one, and D1 keeps what it lacks", async () => {
    const { request, document } = await withIssuedDocument(NOW);
    await runCron(DUE, d1WritesDown());
    const written = await archiveOf(document.uuid);
    expect(written?.auditEvents.map((event) => event.type)).toEqual(["issued"]);
    // Recorded after the first run read the trail.
    expect((await request(qrPath(document.url))).status).toBe(200);

    await runCron(DUE + HOUR);

    expect(await archiveOf(document.uuid)).toEqual(written);
    expect((await d1Events(document.uuid)).map((event) => event.type)).toEqual([
      "qr_accessed",
    ]);
  });

  it("changes nothing when run again: one archive, each event once", async () => {
    const { document } = await withIssuedDocument(NOW);
    await runCron(DUE);
    const row = await documentRow(document.uuid);
    const archived = await archiveOf(document.uuid);
    const etag = (await env.PDFS.head(archiveObjectKey(document.uuid)))?.etag;

    await runCron(DUE + HOUR);

    expect(await documentRow(document.uuid)).toEqual(row);
    expect(await archiveOf(document.uuid)).toEqual(archived);
    expect((await env.PDFS.head(archiveObjectKey(document.uuid)))?.etag).toBe(
      etag,
    );
    const objects = await env.PDFS.list({
      prefix: archiveObjectKey(document.uuid),
    });
    expect(objects.objects).toHaveLength(1);
    expect(await d1Events(document.uuid)).toEqual([]);
    const ids = archived?.auditEvents.map((event) => event.id) ?? [];
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(1);
  });

  it("keeps in D1 an event recorded between the archive's read and its update", async () => {
    const { document } = await withIssuedDocument(NOW);
    const trail = await d1Events(document.uuid);
    const late = { type: "qr_accessed", occurred_at: DUE - 1 };
    // R2 stores the archive, then a QR access lands before the D1 batch.
    const bindings: Env = {
      ...env,
      PDFS: new Proxy(env.PDFS, {
        get(target, property) {
          if (property !== "put") {
            const value = Reflect.get(target, property);
            return typeof value === "function" ? value.bind(target) : value;
          }
          return async (...args: Parameters<R2Bucket["put"]>) => {
            const written = await target.put(...args);
            if (args[0] === archiveObjectKey(document.uuid)) {
              await shardOf(document.uuid)
                .prepare(
                  "INSERT INTO audit_events (document_uuid, type, request_id, occurred_at) VALUES (?, ?, 'late-request', ?)",
                )
                .bind(document.uuid, late.type, late.occurred_at)
                .run();
            }
            return written;
          };
        },
      }),
    };

    await runCron(DUE, bindings);

    expect((await documentRow(document.uuid))?.archived_at).toBe(DUE);
    const remaining = await d1Events(document.uuid);
    expect(remaining).toEqual([{ id: expect.any(Number), ...late }]);
    const archived = await archiveOf(document.uuid);
    expect(archived?.auditEvents.map((event) => event.id)).toEqual(
      trail.map((event) => event.id),
    );

    await runCron(DUE + HOUR);
    expect(await d1Events(document.uuid)).toEqual(remaining);
  });
});

// What `npm run keys -- audit` prints (GET /ops/v1/documents/{uuid}/audit).
describe("the audit trail the key tool prints", () => {
  async function trailOf(uuid: string) {
    const services = {
      shards: openShards(env),
      shardsBefore: null,
      archives: createArchiveStore(
        env.PDFS,
        parseKeyring(env.PDF_KEYRING, "PDF_KEYRING"),
      ),
    };
    return (await documentAudit(services, uuid)).events;
  }

  it("lists the archived and the later events in time order, each with its source, and no body", async () => {
    const { clock, request, api, document } = await withIssuedDocument(NOW);
    clock.advance(HOUR);
    expect((await request(qrPath(document.url))).status).toBe(200);
    await runCron(DUE);
    clock.set(DUE + HOUR);
    const body = fullRequest();
    body.reference = "PED-2026-0001-B";
    expect((await api.rectify(document.uuid, body)).status).toBe(200);

    const trail = await trailOf(document.uuid);

    expect(trail).toEqual([
      {
        occurred_at: new Date(NOW).toISOString(),
        type: "issued",
        credential_id: expect.any(String),
        request_id: expect.any(String),
        gate: null,
        dataset_id: null,
        source: "archive",
      },
      {
        occurred_at: new Date(NOW + HOUR).toISOString(),
        type: "qr_accessed",
        credential_id: null,
        request_id: expect.any(String),
        gate: null,
        dataset_id: null,
        source: "archive",
      },
      {
        occurred_at: new Date(DUE + HOUR).toISOString(),
        type: "rectified",
        credential_id: expect.any(String),
        request_id: expect.any(String),
        gate: null,
        dataset_id: null,
        source: "d1",
      },
    ]);
    const printed = JSON.stringify(trail);
    expect(printed).not.toContain(document.data.shipper.name);
    expect(printed).not.toContain(new URL(document.url).search);
  });

  it("shows an event kept in both places once, as the D1 row it still is", async () => {
    const { document } = await withIssuedDocument(NOW);
    await runCron(DUE, d1WritesDown());
    expect(await archiveOf(document.uuid)).not.toBeNull();

    expect(await trailOf(document.uuid)).toEqual([
      expect.objectContaining({ type: "issued", source: "d1" }),
    ]);
  });
});
