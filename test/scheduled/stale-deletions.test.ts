import {
  createExecutionContext,
  createScheduledController,
  env,
} from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { minimalRequest } from "../../fixtures/requests";
import { DELETION_MARK_STALE_MS } from "../../src/domain/documents/finish-deletion";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import { createScheduledHandler } from "../../src/scheduled";
import { createCredential } from "../helpers/credentials";
import { documentsApi, qrPath } from "../helpers/documents-api";
import { r2PutDown } from "../helpers/faults";
import { rowsOfAllShards } from "../helpers/shards";
import { callWithClock, fixedClock } from "../helpers/worker";

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 21, 9);
const DELETED_AT = NOW + HOUR;
// The deletion window (2 h) and its margin (1 h): src/domain/windows.ts.
const SETTLED = NOW + 3 * HOUR;

afterEach(() => {
  vi.restoreAllMocks();
});

const runCron = (at: number) =>
  createScheduledHandler({
    clock: fixedClock(at),
    renderPdf: renderDocumentPdf,
  })(createScheduledController(), env, createExecutionContext());

const marks = (uuid: string) =>
  rowsOfAllShards(
    "SELECT document_uuid, created_at FROM pending_deletion_marks WHERE document_uuid = ?",
    uuid,
  );

const deletedAtInObject = async (uuid: string) =>
  (await env.PDFS.head(`documents/${uuid}.pdf`))?.customMetadata?.deleted_at;

/** A document deleted at DELETED_AT, through bindings `bindings`. */
async function deletedDocument(bindings: Env = env) {
  const owner = await createCredential();
  const clock = fixedClock(NOW);
  const document = await documentsApi(callWithClock(clock), owner.key).issue(
    minimalRequest(),
  );
  clock.set(DELETED_AT);
  const deleting = documentsApi(callWithClock(clock, bindings), owner.key);
  expect((await deleting.remove(document.uuid)).status).toBe(204);
  return { clock, document };
}

describe("a deletion's PDF object", () => {
  it("says the document is deleted, and no mark is left behind", async () => {
    const { document } = await deletedDocument();
    expect(await deletedAtInObject(document.uuid)).toBe(String(DELETED_AT));
    expect(await marks(document.uuid)).toEqual([]);
  });

  it("is finished by the cron once the mark is stale when the Worker died before writing it", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { clock, document } = await deletedDocument(r2PutDown());
    expect(await deletedAtInObject(document.uuid)).toBeUndefined();
    expect(await marks(document.uuid)).toEqual([
      { document_uuid: document.uuid, created_at: DELETED_AT },
    ]);

    await runCron(DELETED_AT + DELETION_MARK_STALE_MS - 1);
    expect(await deletedAtInObject(document.uuid)).toBeUndefined();
    expect(await marks(document.uuid)).toHaveLength(1);

    await runCron(DELETED_AT + DELETION_MARK_STALE_MS);
    expect(await deletedAtInObject(document.uuid)).toBe(String(DELETED_AT));
    expect(await marks(document.uuid)).toEqual([]);
    clock.set(SETTLED);
    expect((await callWithClock(clock)(qrPath(document.url))).status).toBe(404);
  });
});
