import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fullRequest, minimalRequest } from "../../fixtures/requests";
import { createCredential } from "../helpers/credentials";
import { deletion, documentsApi, qrPath } from "../helpers/documents-api";
import { rateLimiterDown } from "../helpers/faults";
import {
  bearer,
  call,
  callWith,
  callWithClock,
  fixedClock,
  fromIp,
} from "../helpers/worker";

// docs/api.md, Errors: every response carries X-Request-Id, whatever route and
// status, JSON or PDF or page, GET or HEAD.

const REQUEST_ID = /^req_[0-9A-Za-z]{24}$/;
const IP = "192.0.2.12";
const DAY = 24 * 3_600_000;
const NEVER = "/api/v1/documents/00000000-0000-4000-8000-000000000000";

const json = (method: string, body: string, key?: string): RequestInit => ({
  method,
  headers: {
    ...(key ? { Authorization: `Bearer ${key}` } : {}),
    "Content-Type": "application/json",
  },
  body,
});

describe("X-Request-Id", () => {
  it("is on every response of every route and status", async () => {
    const worker = fromIp(call, IP);
    const { key } = await createCredential();
    const api = documentsApi(worker, key);
    const document = await api.issue(fullRequest());
    const removable = await api.issue(minimalRequest());
    const demo = await createCredential({
      environment: "demo",
      expiresAt: Date.now() + DAY,
      requesterIp: IP,
    });
    const demoDocument = await documentsApi(worker, demo.key).issue(
      minimalRequest(),
    );
    const limited = await createCredential({ rateLimitPerMinute: 1 });
    const fenced = await createCredential({ allowedIps: ["198.51.100.1"] });
    const pdf = `/api/v1/documents/${document.uuid}/pdf`;
    const head = (path: string, init: RequestInit = {}) =>
      worker(path, { ...init, method: "HEAD" });
    const outage = fromIp(
      callWithClock(fixedClock(Date.now()), rateLimiterDown()),
      IP,
    );
    const demoOff = fromIp(
      callWithClock(fixedClock(Date.now()), { ...env, DEMO_ENABLED: "false" }),
      IP,
    );
    const rendererDown = callWith({
      clock: fixedClock(Date.now()),
      renderPdf: () => Promise.reject(new Error("renderer down")),
    });

    const answers: [string, number, () => Promise<Response>][] = [
      ["QR link", 200, () => worker(qrPath(document.url))],
      ["QR link, HEAD", 200, () => head(qrPath(document.url))],
      ["demo QR link", 200, () => worker(qrPath(demoDocument.url))],
      ["demo QR link, HEAD", 200, () => head(qrPath(demoDocument.url))],
      ["QR link, wrong secret", 404, () => worker(`/d/${document.uuid}?k=x`)],
      ["QR link, HEAD, wrong secret", 404, () => head(`/d/${document.uuid}`)],
      ["demo QR link, demo off", 503, () => demoOff(qrPath(demoDocument.url))],
      ["PDF download", 200, () => worker(pdf, bearer(key))],
      ["PDF download, HEAD", 200, () => head(pdf, bearer(key))],
      ["PDF download, no key", 401, () => worker(pdf)],
      ["PDF download, HEAD, no key", 401, () => head(pdf)],
      ["document", 200, () => api.get(document.uuid)],
      ["status", 200, () => api.status(document.uuid)],
      ["list", 200, () => api.list()],
      ["retry", 200, () => api.create(fullRequest())],
      ["create", 201, () => api.create(minimalRequest())],
      ["delete", 204, () => api.remove(removable.uuid)],
      [
        "malformed JSON",
        400,
        () => worker("/api/v1/documents", json("POST", "{", key)),
      ],
      ["no key", 401, () => worker("/api/v1/documents")],
      [
        "IP not allowed",
        403,
        () => worker("/api/v1/documents", bearer(fenced.key)),
      ],
      ["unknown document", 404, () => worker(NEVER, bearer(key))],
      ["unknown path", 404, () => worker("/nowhere")],
      [
        "wrong method",
        405,
        () => worker("/api/v1/documents", { method: "PATCH" }),
      ],
      [
        "delete refused",
        409,
        () => api.remove(document.uuid, deletion({ confirm_not_used: false })),
      ],
      [
        "too large",
        413,
        () =>
          worker("/api/v1/documents", json("POST", " ".repeat(200_000), key)),
      ],
      [
        "not JSON",
        415,
        () =>
          worker("/api/v1/documents", {
            method: "POST",
            headers: {
              Authorization: `Bearer ${key}`,
              "Content-Type": "text/plain",
            },
            body: "{}",
          }),
      ],
      ["invalid body", 422, () => api.create({})],
      ["invalid query", 422, () => api.list("?page=0")],
      [
        "limited, first",
        200,
        () => worker("/api/v1/documents", bearer(limited.key)),
      ],
      ["limited", 429, () => worker("/api/v1/documents", bearer(limited.key))],
      [
        "demo token, demo off",
        503,
        () => demoOff("/api/v1/demo/tokens", json("POST", "{}")),
      ],
      [
        "rate limiter down",
        503,
        () => outage("/api/v1/documents", bearer(key)),
      ],
      [
        "renderer down",
        500,
        () =>
          documentsApi(rendererDown, key).create({
            ...fullRequest(),
            reference: null,
          }),
      ],
      [
        "demo token",
        201,
        () => worker("/api/v1/demo/tokens", json("POST", "{}")),
      ],
      [
        "demo document",
        200,
        () => documentsApi(worker, demo.key).get(demoDocument.uuid),
      ],
      ["OpenAPI document", 200, () => worker("/api/v1/openapi.json")],
      ["playground page", 200, () => worker("/")],
      ["playground page, HEAD", 200, () => head("/")],
      ["docs page", 200, () => worker("/docs")],
      ["page script", 200, () => worker("/play/play.js")],
      ["missing page file", 404, () => worker("/play/missing.js")],
      [
        "correction",
        200,
        () =>
          api.rectify(document.uuid, { ...fullRequest(), reference: "RID-2" }),
      ],
    ];

    const ids: string[] = [];
    for (const [name, status, send] of answers) {
      const response = await send();
      await response.body?.cancel();
      expect(response.status, name).toBe(status);
      expect(response.headers.get("X-Request-Id"), name).toMatch(REQUEST_ID);
      ids.push(response.headers.get("X-Request-Id") as string);
    }
    expect(new Set(ids).size).toBe(answers.length);
  });
});
