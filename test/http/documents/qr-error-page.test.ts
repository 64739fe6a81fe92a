import { env } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { minimalRequest } from "../../../fixtures/requests";
import type { AppEnv } from "../../../src/env";
import { DomainError } from "../../../src/errors";
import { handleError } from "../../../src/http/error-handler";
import { errorPageForPeople } from "../../../src/http/middleware/error-page-for-people";
import {
  comparable,
  issueDemoDocument,
  qrPath,
  sha256Of,
  withIssuedDocument,
} from "../../helpers/documents-api";
import { r2GetDown } from "../../helpers/faults";
import { callWithClock } from "../../helpers/worker";

const DAY = 24 * 3_600_000;
const NOW = Date.UTC(2026, 11, 3, 9);
/** What a phone's browser sends when it opens a link. */
const PHONE = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const html = { headers: { Accept: PHONE } };

/** The four ways a QR link leads to nothing, and a path that names no document. */
async function deadLinks() {
  const { clock, request, api, document } = await withIssuedDocument(NOW);
  const k = new URL(document.url).searchParams.get("k") as string;
  const deleted = await api.issue(minimalRequest());
  await api.remove(deleted.uuid);
  const demo = await issueDemoDocument(request);
  clock.set(NOW + DAY);
  return {
    request,
    document,
    paths: {
      unknown: `/d/00000000-0000-4000-8000-000000000000?k=${k}`,
      wrongSecret: `/d/${document.uuid}?k=${k.slice(0, -1)}${k.endsWith("A") ? "B" : "A"}`,
      deleted: qrPath(deleted.url),
      demoSessionOver: qrPath(demo.url),
      malformed: `/d/NOT-A-UUID?k=${k}`,
    },
  };
}

/** A page that names nothing outside itself and runs nothing. */
function expectSelfContained(page: string, response: Response) {
  expect(response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
  expect(response.headers.get("Content-Security-Policy")).toMatch(
    /^default-src 'none'; style-src 'sha256-[^']+';/,
  );
  expect(page).toMatch(/^<!doctype html><html lang="es">/);
  expect(page).not.toMatch(/<script|<a |<link|<img|src=|href=|url\(|http/i);
}

describe("a QR link that leads to no PDF, opened by a browser", () => {
  it("answers one page, the same bytes for every cause of a 404, Spanish then English", async () => {
    const { request, paths } = await deadLinks();
    const answers = await Promise.all(
      Object.values(paths).map(async (path) =>
        comparable(await request(path, html)),
      ),
    );
    const [first] = answers;
    for (const answer of answers) expect(answer).toEqual(first);
    expect(first?.status).toBe(404);
    const page = first?.body ?? "";
    const response = await request(paths.unknown, html);
    expectSelfContained(page, response);
    expect(page.indexOf("Documento no disponible")).toBeGreaterThan(0);
    expect(page.indexOf("Document not available")).toBeGreaterThan(
      page.indexOf("Documento no disponible"),
    );
  });

  it("answers JSON, as before, to a client that asks for JSON or for nothing in particular", async () => {
    const { request, paths } = await deadLinks();
    for (const accept of [
      "application/json",
      "*/*",
      "text/html;q=0.5, */*",
      "application/json, text/html",
      null,
    ]) {
      const headers: Record<string, string> = accept ? { Accept: accept } : {};
      for (const path of Object.values(paths)) {
        const response = await request(path, { headers });
        expect(response.status, `${accept} ${path}`).toBe(404);
        expect(response.headers.get("Content-Type")).toBe("application/json");
        expect(await response.json()).toEqual({
          errors: [
            { field: null, code: "NOT_FOUND", message: expect.any(String) },
          ],
        });
      }
    }
  });

  it("still serves the PDF itself, inline, to a browser", async () => {
    const { request, document } = await deadLinks();
    const response = await request(qrPath(document.url), html);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toMatch(/^inline/);
    expect(await sha256Of(await response.arrayBuffer())).toBe(
      document.pdf.sha256,
    );
  });

  it("says to try again in a moment while storage is down, with the same status and Retry-After", async () => {
    const { clock, document } = await withIssuedDocument(NOW);
    const storageDown = callWithClock(clock, r2GetDown());
    const json = await storageDown(qrPath(document.url));
    const response = await storageDown(qrPath(document.url), html);
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe(
      json.headers.get("Retry-After"),
    );
    expect(response.headers.get("Retry-After")).toMatch(/^\d+$/);
    const page = await response.text();
    expectSelfContained(page, response);
    expect(page).toContain("Inténtelo de nuevo en un momento");
    expect(page).toContain("Try again in a moment");
  });

  it("says to try again in a moment while the demo is switched off", async () => {
    const { clock, document } = await withIssuedDocument(NOW);
    const off = callWithClock(clock, { ...env, DEMO_ENABLED: "false" });
    const demoPath = qrPath(document.url).replace("/d/", "/demo/d/");
    const response = await off(demoPath, html);
    expect(response.status).toBe(503);
    expect(await response.text()).toContain("Inténtelo de nuevo en un momento");
  });

  it("says to try again in a moment when refused for too many requests, Retry-After kept", async () => {
    const app = new Hono<AppEnv>()
      .get("/d/:uuid", errorPageForPeople, () => {
        throw new DomainError("DEMO_RATE_LIMITED", { retryAfterMs: 30_000 });
      })
      .onError(handleError);
    const response = await app.request("/d/x", html);
    expect(response.status).toBe(429);
    expect(response.headers.get("Retry-After")).toBe("30");
    const page = await response.text();
    expectSelfContained(page, response);
    expect(page).toContain("Inténtelo de nuevo en un momento");
  });
});
