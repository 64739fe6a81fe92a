import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DELETION_MARK_STALE_MS } from "../../src/domain/documents/finish-deletion";
import { runCron } from "../helpers/cron";
import {
  documentsApi,
  qrPath,
  withIssuedDocument,
} from "../helpers/documents-api";
import {
  d1DownAfter,
  d1Lost,
  d1StatementsDown,
  d1WritesDown,
  r2PutDown,
  r2PutLost,
} from "../helpers/faults";
import { rowsOfAllShards, shardOf, shards } from "../helpers/shards";
import { callWithClock } from "../helpers/worker";

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 21, 9);
const DELETED_AT = NOW + HOUR;
// The deletion window (2 h) and its margin (1 h): src/domain/windows.ts.
const SETTLED = NOW + 3 * HOUR;

afterEach(() => {
  vi.restoreAllMocks();
});

const marks = (uuid: string) =>
  rowsOfAllShards(
    "SELECT document_uuid, created_at FROM pending_deletion_marks WHERE document_uuid = ?",
    uuid,
  );

const objectMetadata = async (uuid: string) =>
  (await env.PDFS.head(`documents/${uuid}.pdf`))?.customMetadata;

/** What the edge cache keeps for `uuid` (src/storage/pdf-edge-cache.ts). */
const keptFor = (uuid: string) =>
  caches.default.match(`https://qr-cache.internal/d/${uuid}`);

/** A document issued at NOW, and what a test does with it at `at` through `bindings`. */
async function issued() {
  const { clock, owner, document } = await withIssuedDocument(NOW);
  const at = (time: number, bindings: Env = env) => {
    clock.set(time);
    const request = callWithClock(clock, bindings);
    return {
      remove: () => documentsApi(request, owner.key).remove(document.uuid),
      listed: async () =>
        (
          (await (await documentsApi(request, owner.key).list()).json()) as {
            data: { uuid: string }[];
          }
        ).data.map((entry) => entry.uuid),
      qr: async () => (await request(qrPath(document.url))).status,
    };
  };
  return { document, at };
}

/** A document deleted at DELETED_AT, its mark waiting for the cron. */
async function deletedWithMark() {
  const deleted = await issued();
  expect((await deleted.at(DELETED_AT).remove()).status).toBe(204);
  return deleted;
}

describe("a deletion", () => {
  it("says 'maybe deleted' in its PDF object before it commits; the cron then says 'deleted' and leaves no mark", async () => {
    const { document, at } = await issued();
    expect((await at(DELETED_AT).remove()).status).toBe(204);
    expect(await objectMetadata(document.uuid)).toMatchObject({
      deletion_requested_at: String(DELETED_AT),
    });
    expect((await objectMetadata(document.uuid))?.deleted_at).toBeUndefined();
    expect(await marks(document.uuid)).toHaveLength(1);

    await runCron(DELETED_AT + DELETION_MARK_STALE_MS - 1);
    expect(await marks(document.uuid)).toHaveLength(1);
    await runCron(DELETED_AT + DELETION_MARK_STALE_MS);
    expect(await objectMetadata(document.uuid)).toMatchObject({
      deletion_requested_at: String(DELETED_AT),
      deleted_at: String(DELETED_AT),
    });
    expect(await marks(document.uuid)).toEqual([]);
    expect(await at(SETTLED).qr()).toBe(404);
  });

  it("is never served by its QR link once the window has passed, the object not rewritten and the cron behind; nothing is kept at the edge", async () => {
    const { document, at } = await issued();
    expect((await at(DELETED_AT).remove()).status).toBe(204);
    expect(await at(SETTLED).qr()).toBe(404);
    expect(await keptFor(document.uuid)).toBeUndefined();
  });
});

// Each write of a deletion's request, failing before it takes effect or
// taking effect with its answer lost; `committed`: whether the deletion did.
const REQUEST_FAULTS: [string, () => Env, boolean][] = [
  ["D1 refuses the read that writes the mark", d1WritesDown, false],
  [
    "D1 applies the read that writes the mark and its answer is lost",
    () => d1Lost(/^insert into "pending_deletion_marks"/),
    false,
  ],
  ["R2 refuses the 'maybe deleted' write", r2PutDown, false],
  ["R2 writes 'maybe deleted' and its answer is lost", r2PutLost, false],
  [
    "D1 refuses the list entry's removal",
    () => d1StatementsDown(/^delete from "document_summaries"/),
    false,
  ],
  [
    "D1 removes the list entry and its answer is lost",
    () => d1Lost(/^delete from "document_summaries"/),
    false,
  ],
  [
    "D1 refuses the deletion's batch",
    () => d1DownAfter(/^delete from "document_summaries"/),
    false,
  ],
  [
    "D1 applies the deletion's batch and its answer is lost",
    () => d1Lost(/^update "documents" set "deleted_at"/),
    true,
  ],
];

describe.each(REQUEST_FAULTS)(
  "a deletion whose request fails when %s",
  (_, faults, committed) => {
    it(`answers 503; its QR link past the window answers ${committed ? "404" : "200"} before the cron and after it, which lists it ${committed ? "no more" : "still"}`, async () => {
      vi.spyOn(console, "error").mockImplementation(() => {});
      const { document, at } = await issued();
      expect((await at(DELETED_AT, faults()).remove()).status).toBe(503);

      // The cron behind: D1 decides.
      expect(await at(SETTLED).qr()).toBe(committed ? 404 : 200);
      await runCron(SETTLED);
      expect(await marks(document.uuid)).toEqual([]);
      expect(await at(SETTLED).listed()).toEqual(
        committed ? [] : [document.uuid],
      );
      expect(await at(SETTLED).qr()).toBe(committed ? 404 : 200);
      expect((await objectMetadata(document.uuid))?.deleted_at).toBe(
        committed ? String(DELETED_AT) : undefined,
      );
    });

    if (committed) {
      it("converges on a retry: 204, the first deletion time kept", async () => {
        vi.spyOn(console, "error").mockImplementation(() => {});
        const { document, at } = await issued();
        expect((await at(DELETED_AT, faults()).remove()).status).toBe(503);
        expect((await at(DELETED_AT + 1).remove()).status).toBe(204);
        expect(await at(DELETED_AT + 1).listed()).toEqual([]);
        const row = await shardOf(document.uuid)
          .prepare("SELECT deleted_at FROM documents WHERE uuid = ?")
          .bind(document.uuid)
          .first();
        expect(row).toEqual({ deleted_at: DELETED_AT });
      });
    } else {
      it("converges on a retry: 204, then 404 past the window", async () => {
        vi.spyOn(console, "error").mockImplementation(() => {});
        const { at } = await issued();
        expect((await at(DELETED_AT, faults()).remove()).status).toBe(503);
        expect((await at(DELETED_AT + 1).remove()).status).toBe(204);
        expect(await at(SETTLED).qr()).toBe(404);
      });
    }
  },
);

// Each write of the cron's finishing of a deletion, failing or lost.
const CRON_FAULTS: [string, () => Env][] = [
  [
    "D1 refuses the list entry's removal",
    () => d1StatementsDown(/^delete from "document_summaries"/),
  ],
  [
    "D1 removes the list entry and its answer is lost",
    () => d1Lost(/^delete from "document_summaries"/),
  ],
  ["R2 refuses the 'deleted' write", r2PutDown],
  ["R2 writes 'deleted' and its answer is lost", r2PutLost],
  [
    "D1 refuses the mark's removal",
    () => d1StatementsDown(/^delete from "pending_deletion_marks"/),
  ],
  [
    "D1 removes the mark and its answer is lost",
    () => d1Lost(/^delete from "pending_deletion_marks"/),
  ],
];

describe.each(CRON_FAULTS)(
  "the cron finishing a deletion when %s",
  (_, faults) => {
    it("never serves the document, and the next run finishes it", async () => {
      vi.spyOn(console, "error").mockImplementation(() => {});
      const { document, at } = await deletedWithMark();
      await runCron(SETTLED, faults());
      expect(await at(SETTLED).qr()).toBe(404);
      await runCron(SETTLED);
      expect(await marks(document.uuid)).toEqual([]);
      expect(await at(SETTLED).listed()).toEqual([]);
      expect((await objectMetadata(document.uuid))?.deleted_at).toBe(
        String(DELETED_AT),
      );
      expect(await at(SETTLED).qr()).toBe(404);
    });
  },
);

describe("a deletion mark lingering in a shard that is not its document's", () => {
  it("is finished through the document's own shard", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { document, at } = await deletedWithMark();
    const home = shardOf(document.uuid);
    const elsewhere = shards.find((shard) => shard !== home) as D1Database;
    await home
      .prepare("DELETE FROM pending_deletion_marks WHERE document_uuid = ?")
      .bind(document.uuid)
      .run();
    await elsewhere
      .prepare(
        "INSERT INTO pending_deletion_marks (document_uuid, created_at) VALUES (?, ?)",
      )
      .bind(document.uuid, DELETED_AT)
      .run();

    await runCron(SETTLED);
    expect(await marks(document.uuid)).toEqual([]);
    expect(await at(SETTLED).listed()).toEqual([]);
    expect((await objectMetadata(document.uuid))?.deleted_at).toBe(
      String(DELETED_AT),
    );
  });
});
