import {
  createExecutionContext,
  env,
  waitOnExecutionContext,
} from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fullRequest } from "../../../fixtures/requests";
import { createApiApp } from "../../../src/api-app";
import { renderDocumentPdf } from "../../../src/pdf/render-document";
import { checkedAgainstContract } from "../../helpers/contract";
import { CallLedger, countingBindings } from "../../helpers/counting-bindings";
import {
  issueDemoDocument,
  qrPath,
  sha256Of,
  withIssuedDocument,
} from "../../helpers/documents-api";
import { d1WritesDown, failing, r2GetDown } from "../../helpers/faults";
import { qrAccessTimes } from "../../helpers/shards";
import {
  type Call,
  callWith,
  callWithClock,
  fixedClock,
  ORIGIN,
} from "../../helpers/worker";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 22, 7);
// The deletion window (2 h) and its margin (1 h): src/domain/windows.ts.
const SETTLED = NOW + 3 * HOUR;

afterEach(() => {
  vi.restoreAllMocks();
});

/** The Workers cache with every call to it (`match`, `put`) counted. */
function countedCache(): { cache: Cache; calls: string[] } {
  const calls: string[] = [];
  const cache = new Proxy(caches.default, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.push(String(property));
        return Reflect.apply(value, target, args);
      };
    },
  });
  return { cache, calls };
}

/** What the cache itself keeps for `uuid` (src/storage/pdf-edge-cache.ts). */
const keptFor = (uuid: string) =>
  caches.default.match(`https://qr-cache.internal/d/${uuid}`);

/** An answer's status, headers but its request id, and its body's SHA-256. */
const answerOf = async (response: Response) => ({
  status: response.status,
  headers: [...response.headers].filter(([name]) => name !== "x-request-id"),
  sha256: await sha256Of(await response.arrayBuffer()),
});

const MINUTE = 60_000;

const secretOf = (url: string) => new URL(url).searchParams.get("k") as string;

describe("a settled QR link served from the edge cache", () => {
  it("serves the first answer's bytes and headers again, with no D1 or R2 call before the answer", async () => {
    const { clock, document } = await withIssuedDocument(NOW);
    clock.set(SETTLED);
    const first = await callWithClock(clock)(qrPath(document.url));
    expect(first.status).toBe(200);
    const firstId = first.headers.get("X-Request-Id");
    const firstAnswer = await answerOf(first);
    expect(firstAnswer.sha256).toBe(document.pdf.sha256);

    // A minute later: a second access this instance records again.
    clock.set(SETTLED + MINUTE);
    const ledger = new CallLedger();
    const app = createApiApp({ clock, renderPdf: renderDocumentPdf });
    const request = new Request(`${ORIGIN}${qrPath(document.url)}`);
    const context = createExecutionContext();
    const { answer, calls } = await ledger.measureRequest(
      async () => app.fetch(request, countingBindings(env, ledger), context),
      () => waitOnExecutionContext(context),
    );
    const hit = await checkedAgainstContract(request, answer);
    // After the answer: the access, its audit row and its event in one
    // batch, then the event's announce.
    expect(calls).toEqual([
      { label: "D1 batch(5)", depth: 1, background: true },
      { label: "EVENTS sendBatch", depth: 2, background: true },
    ]);
    expect(hit.headers.get("X-Request-Id")).not.toBe(firstId);
    const hitAnswer = await answerOf(hit);
    expect(hitAnswer).toEqual(firstAnswer);
    expect(hitAnswer.headers).toContainEqual([
      "cache-control",
      "no-store, private",
    ]);
    // Both accesses are in the audit trail, the hit's recorded after its answer.
    expect(await qrAccessTimes(document.uuid)).toEqual([
      SETTLED,
      SETTLED + MINUTE,
    ]);
  });

  it("records repeated scans of one settled document within a minute once", async () => {
    const { clock, document } = await withIssuedDocument(NOW);
    const request = callWithClock(clock);
    for (const at of [SETTLED, SETTLED + 1, SETTLED + MINUTE - 1]) {
      clock.set(at);
      expect((await request(qrPath(document.url))).status).toBe(200);
    }
    clock.set(SETTLED + MINUTE);
    expect((await request(qrPath(document.url))).status).toBe(200);
    expect(await qrAccessTimes(document.uuid)).toEqual([
      SETTLED,
      SETTLED + MINUTE,
    ]);
  });

  it("answers a hit with the PDF as issued while R2 is down", async () => {
    const { clock, request, document } = await withIssuedDocument(NOW);
    clock.set(SETTLED);
    expect((await request(qrPath(document.url))).status).toBe(200);
    clock.set(SETTLED + MINUTE);
    const r2Down = callWithClock(clock, r2GetDown());
    const response = await r2Down(qrPath(document.url));
    expect(response.status).toBe(200);
    expect(await sha256Of(await response.arrayBuffer())).toBe(
      document.pdf.sha256,
    );
    // A HEAD may be a hit too, and records nothing.
    const head = await r2Down(qrPath(document.url), { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("Content-Length")).toBe(
      String(document.pdf.size_bytes),
    );
    expect(await qrAccessTimes(document.uuid)).toEqual([
      SETTLED,
      SETTLED + MINUTE,
    ]);
  });

  it("never reads the cache with a wrong secret: the 404 of an unknown document", async () => {
    const { clock, request, document } = await withIssuedDocument(NOW);
    clock.set(SETTLED);
    expect((await request(qrPath(document.url))).status).toBe(200);
    const { cache, calls } = countedCache();
    const counted = callWith({ clock, edgeCache: cache });
    const k = secretOf(document.url);
    const flipped = `${k.slice(0, -1)}${k.endsWith("A") ? "B" : "A"}`;
    for (const path of [
      `/d/${document.uuid}?k=${flipped}`,
      `/d/${document.uuid}`,
      `/d/${document.uuid}?k=`,
    ]) {
      expect((await counted(path)).status, path).toBe(404);
    }
    expect(calls).toEqual([]);
    expect((await counted(qrPath(document.url))).status).toBe(200);
    expect(calls).toEqual(["match"]);
  });

  it("keeps nothing while the document may still be deleted, and records its first access before serving", async () => {
    const { clock, document } = await withIssuedDocument(NOW);
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { cache, calls } = countedCache();
    clock.set(SETTLED - 1);
    const writesDown = callWith({
      clock,
      bindings: d1WritesDown(),
      edgeCache: cache,
    });
    expect((await writesDown(qrPath(document.url))).status).toBe(503);
    const request = callWith({ clock, edgeCache: cache });
    expect((await request(qrPath(document.url))).status).toBe(200);
    expect(calls).toEqual([]);
    expect(await keptFor(document.uuid)).toBeUndefined();
    clock.set(SETTLED);
    expect((await request(qrPath(document.url))).status).toBe(200);
    expect(calls).toEqual(["match", "put"]);
    expect(await keptFor(document.uuid)).toBeDefined();
  });

  it("keeps no deleted document, and no document for a link of the other family", async () => {
    const { clock, request, api, document } = await withIssuedDocument(NOW);
    const other = await api.issue({ ...fullRequest(), reference: null });
    clock.set(NOW + 2 * HOUR - 1);
    expect((await api.remove(document.uuid)).status).toBe(204);
    clock.set(SETTLED);
    expect((await request(qrPath(document.url))).status).toBe(404);
    expect(
      (await request(qrPath(other.url).replace("/d/", "/demo/d/"))).status,
    ).toBe(404);
    expect(await keptFor(document.uuid)).toBeUndefined();
    expect(await keptFor(other.uuid)).toBeUndefined();
  });

  it("serves from R2 when the cache fails to answer or to keep", async () => {
    const { clock, document } = await withIssuedDocument(NOW);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    clock.set(SETTLED);
    for (const method of ["put", "match"]) {
      const response = await callWith({
        clock,
        edgeCache: failing(caches.default, method),
      })(qrPath(document.url));
      expect(response.status, method).toBe(200);
      expect(await sha256Of(await response.arrayBuffer())).toBe(
        document.pdf.sha256,
      );
    }
    const events = logged.mock.calls.map(
      ([line]) => JSON.parse(String(line)).event,
    );
    expect(events).toEqual(["background_task_failed", "edge_cache_failed"]);
  });
});

describe("a settled demo QR link in the edge cache", () => {
  it("is kept until its session ends at most, and is a 404 after it even though kept", async () => {
    const clock = fixedClock(NOW);
    const request: Call = callWithClock(clock);
    const document = await issueDemoDocument(request);
    const sessionEnd = Date.parse(
      "expires_at" in document ? document.expires_at : "",
    );
    expect(sessionEnd).toBe(NOW + DAY);
    clock.set(SETTLED);
    expect((await request(qrPath(document.url))).status).toBe(200);
    const kept = await keptFor(document.uuid);
    const maxAge = Number(
      /max-age=(\d+)/.exec(kept?.headers.get("Cache-Control") ?? "")?.[1],
    );
    expect(maxAge).toBeGreaterThan(0);
    expect(SETTLED + maxAge * 1000).toBeLessThanOrEqual(sessionEnd);

    // R2 down: only the kept copy can answer.
    const r2Down = callWithClock(clock, r2GetDown());
    clock.set(sessionEnd - 1);
    expect((await r2Down(qrPath(document.url))).status).toBe(200);
    clock.set(sessionEnd);
    const ended = await r2Down(qrPath(document.url));
    expect(ended.status).toBe(404);
    expect(await keptFor(document.uuid)).toBeDefined();
    clock.set(sessionEnd + DAY);
    expect((await r2Down(qrPath(document.url))).status).toBe(404);
  });
});
