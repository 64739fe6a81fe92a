import {
  createExecutionContext,
  createScheduledController,
  env,
  waitOnExecutionContext,
} from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { minimalRequest } from "../../../fixtures/requests";
import { createApiApp } from "../../../src/api-app";
import { newDocumentUuid } from "../../../src/domain/shard-routing";
import { renderDocumentPdf } from "../../../src/pdf/render-document";
import { createScheduledHandler } from "../../../src/scheduled";
import { checkedAgainstContract } from "../../helpers/contract";
import {
  comparable,
  issueDemoDocument,
  qrPath,
  sha256Of,
  withIssuedDocument,
} from "../../helpers/documents-api";
import { d1Held, d1WritesDown, failing } from "../../helpers/faults";
import { qrAccessTimes, shardOf } from "../../helpers/shards";
import { callWithClock, fixedClock, ORIGIN } from "../../helpers/worker";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 21, 7);
// The deletion window (2 h) and its margin (1 h): src/domain/windows.ts.
const SETTLED = NOW + 3 * HOUR;

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * `path` requested with every D1 call held until the answer is back (or
 * `ANSWER_MS` passed); then D1 answers and the work left for after the
 * answer is done.
 */
async function requestWithD1Held(
  clock: { now(): number },
  path: string,
  init: RequestInit = {},
  bindings: (held: Env) => Env = (held) => held,
): Promise<{ response: Response; heldBeforeAnswer: number }> {
  const d1 = d1Held();
  const app = createApiApp({ clock, renderPdf: renderDocumentPdf });
  const request = new Request(`${ORIGIN}${path}`, init);
  const context = createExecutionContext();
  const answered = Promise.resolve(
    app.fetch(request, bindings(d1.bindings), context),
  );
  try {
    const response = await Promise.race([
      answered,
      new Promise<never>((_, reject) =>
        setTimeout(
          () => reject(new Error("no answer while D1 was held")),
          ANSWER_MS,
        ),
      ),
    ]);
    const heldBeforeAnswer = d1.held();
    return {
      response: await checkedAgainstContract(request, response),
      heldBeforeAnswer,
    };
  } finally {
    d1.release();
    await answered.catch(() => undefined);
    await waitOnExecutionContext(context);
  }
}
// Far longer than an answer that needs no D1 takes on a loaded machine.
const ANSWER_MS = 5_000;

const qrAccess = async (uuid: string) => ({
  firstQrAccessAt: (
    await shardOf(uuid)
      .prepare("SELECT first_qr_access_at FROM documents WHERE uuid = ?")
      .bind(uuid)
      .first<{ first_qr_access_at: number | null }>()
  )?.first_qr_access_at,
  events: await qrAccessTimes(uuid),
});

describe("a QR link once its document can no longer be deleted", () => {
  it("serves the PDF without waiting for D1, and records the access after the answer", async () => {
    const { clock, document } = await withIssuedDocument(NOW);
    clock.set(SETTLED);
    const { response, heldBeforeAnswer } = await requestWithD1Held(
      clock,
      qrPath(document.url),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store, private");
    expect(await sha256Of(await response.arrayBuffer())).toBe(
      document.pdf.sha256,
    );
    // The access's write, started for after the answer.
    expect(heldBeforeAnswer).toBe(1);
    expect(await qrAccess(document.uuid)).toEqual({
      firstQrAccessAt: SETTLED,
      events: [SETTLED],
    });
  });

  it("keeps the first access time of a later one", async () => {
    const { clock, request, document } = await withIssuedDocument(NOW);
    clock.set(SETTLED);
    expect((await request(qrPath(document.url))).status).toBe(200);
    clock.set(SETTLED + DAY);
    expect((await request(qrPath(document.url))).status).toBe(200);
    expect(await qrAccess(document.uuid)).toEqual({
      firstQrAccessAt: SETTLED,
      events: [SETTLED, SETTLED + DAY],
    });
  });

  it("records nothing for a HEAD", async () => {
    const { clock, document } = await withIssuedDocument(NOW);
    clock.set(SETTLED);
    const { response, heldBeforeAnswer } = await requestWithD1Held(
      clock,
      qrPath(document.url),
      { method: "HEAD" },
    );
    expect(response.status).toBe(200);
    expect(heldBeforeAnswer).toBe(0);
    expect(await qrAccess(document.uuid)).toEqual({
      firstQrAccessAt: null,
      events: [],
    });
  });

  it("answers 404 for a document deleted in its window, from its PDF object alone once the cron wrote it", async () => {
    const { clock, api, document } = await withIssuedDocument(NOW);
    clock.set(NOW + 2 * HOUR - 1);
    expect((await api.remove(document.uuid)).status).toBe(204);
    clock.set(SETTLED);
    await createScheduledHandler({ clock, renderPdf: renderDocumentPdf })(
      createScheduledController(),
      env,
      createExecutionContext(),
    );
    const { response, heldBeforeAnswer } = await requestWithD1Held(
      clock,
      qrPath(document.url),
    );
    expect(response.status).toBe(404);
    expect(heldBeforeAnswer).toBe(0);
  });

  it("answers a wrong secret the one 404 of an unknown document, reading no storage", async () => {
    const { clock, request, document } = await withIssuedDocument(NOW);
    clock.set(SETTLED);
    const k = new URL(document.url).searchParams.get("k") as string;
    const flipped = `${k.slice(0, -1)}${k.endsWith("A") ? "B" : "A"}`;
    const unknown = await comparable(
      await request(`/d/${newDocumentUuid(7, NOW)}?k=${k}`),
    );
    expect(unknown.status).toBe(404);
    const r2Down = (bindings: Env): Env => ({
      ...bindings,
      PDFS: failing(env.PDFS, "get"),
    });
    for (const path of [
      `/d/${document.uuid}?k=${flipped}`,
      `/d/${document.uuid}`,
      `/d/${document.uuid}?k=`,
      `/d/${document.uuid}?k=${k}x`,
    ]) {
      const { response } = await requestWithD1Held(clock, path, {}, r2Down);
      expect(await comparable(response), path).toEqual(unknown);
    }
    // The right secret does need R2.
    const { response } = await requestWithD1Held(
      clock,
      qrPath(document.url),
      {},
      r2Down,
    );
    expect(response.status).toBe(503);
  });

  it("still records the first access before serving until the window and its margin end", async () => {
    const { clock, document } = await withIssuedDocument(NOW);
    vi.spyOn(console, "error").mockImplementation(() => {});
    const writesDown = callWithClock(clock, d1WritesDown());
    clock.set(SETTLED - 1);
    expect((await writesDown(qrPath(document.url))).status).toBe(503);
    clock.set(SETTLED);
    expect((await writesDown(qrPath(document.url))).status).toBe(200);
  });

  it("refuses a deletion after an access in the window's last millisecond", async () => {
    const { clock, request, api, document } = await withIssuedDocument(NOW);
    clock.set(NOW + 2 * HOUR - 1);
    expect((await request(qrPath(document.url))).status).toBe(200);
    const response = await api.remove(document.uuid);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      errors: [{ code: "DOCUMENT_ALREADY_ACCESSED" }],
    });
  });

  it("asks D1 when the PDF object carries no metadata (stored before it was written)", async () => {
    const { clock, request, api, document } = await withIssuedDocument(NOW);
    const deleted = await api.issue(minimalRequest());
    expect((await api.remove(deleted.uuid)).status).toBe(204);
    for (const { uuid } of [document, deleted]) {
      const key = `documents/${uuid}.pdf`;
      const object = await env.PDFS.get(key);
      await env.PDFS.put(key, await (object as R2ObjectBody).arrayBuffer());
    }
    clock.set(SETTLED);
    expect((await request(qrPath(document.url))).status).toBe(200);
    expect(await qrAccess(document.uuid)).toEqual({
      firstQrAccessAt: SETTLED,
      events: [SETTLED],
    });
    expect((await request(qrPath(deleted.url))).status).toBe(404);
  });
});

describe("a demo QR link once its document can no longer be deleted", () => {
  it("serves its own family until the session ends, from the PDF object alone", async () => {
    const clock = fixedClock(NOW);
    const document = await issueDemoDocument(callWithClock(clock));
    clock.set(SETTLED);
    const path = qrPath(document.url);
    expect(path.startsWith("/demo/d/")).toBe(true);
    const served = await requestWithD1Held(clock, path);
    expect(served.response.status).toBe(200);
    const real = await requestWithD1Held(
      clock,
      path.replace("/demo/d/", "/d/"),
    );
    expect(real.response.status).toBe(404);
    expect(real.heldBeforeAnswer).toBe(0);
    clock.set(NOW + DAY);
    const ended = await requestWithD1Held(clock, path);
    expect(ended.response.status).toBe(404);
    expect(ended.heldBeforeAnswer).toBe(0);
  });

  it("never serves a real document through /demo/d/", async () => {
    const { clock, document } = await withIssuedDocument(NOW);
    clock.set(SETTLED);
    const { response, heldBeforeAnswer } = await requestWithD1Held(
      clock,
      qrPath(document.url).replace("/d/", "/demo/d/"),
    );
    expect(response.status).toBe(404);
    expect(heldBeforeAnswer).toBe(0);
  });
});
