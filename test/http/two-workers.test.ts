import {
  createExecutionContext,
  env,
  waitOnExecutionContext,
} from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fullRequest } from "../../fixtures/requests";
import { createApiApp } from "../../src/api-app";
import { systemClock } from "../../src/clock";
import { createEdgeWorker } from "../../src/edge-app";
import type { EdgeEnv } from "../../src/env";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import { createCredential } from "../helpers/credentials";
import { comparable, documentsApi, qrPath } from "../helpers/documents-api";
import { capturedLog } from "../helpers/log";
import { call, ORIGIN } from "../helpers/worker";

// The edge Worker answers the QR links and the pages itself and hands every
// other request, untouched, to the API Worker (docs/scale.md "Placement");
// the API Worker answers the QR links as the edge does, and no page.
const dependencies = { clock: systemClock, renderPdf: renderDocumentPdf };
const NEVER_ISSUED = "/d/01900000-0000-7000-8000-000000000000?k=wrong";

/**
 * The edge Worker with an API Worker that records what it was handed and
 * answers a marked 418, or throws `failure` when one is given.
 */
function edgeWithRecordingApi(failure?: Error, vars: Partial<EdgeEnv> = {}) {
  const forwarded: Request[] = [];
  const API = {
    fetch: async (request: Request) => {
      forwarded.push(request);
      if (failure) throw failure;
      return new Response("from the API Worker", {
        status: 418,
        headers: { "X-From": "api" },
      });
    },
  } as unknown as Fetcher;
  const edgeEnv = Object.create(env, {
    API: { value: API },
    ...Object.fromEntries(
      Object.entries(vars).map(([name, value]) => [name, { value }]),
    ),
  }) as EdgeEnv;
  const edge = createEdgeWorker(dependencies);
  const send = async (path: string, init?: RequestInit) => {
    const context = createExecutionContext();
    const response = await edge.fetch(
      new Request(`${ORIGIN}${path}`, init),
      edgeEnv,
      context,
    );
    await waitOnExecutionContext(context);
    return response;
  };
  return { forwarded, send };
}

describe("the edge Worker", () => {
  it.each([
    ["/", 200],
    ["/docs", 200],
    ["/docs/docs.js", 200],
    ["/play/play.js", 200],
    ["/vendor/swagger-ui/swagger-ui.css", 200],
    ["/docs/nothing.js", 404],
    [NEVER_ISSUED, 404],
    ["/demo/d/01900000-0000-7000-8000-000000000000?k=wrong", 404],
    ["/d/not-a-uuid?k=wrong", 404],
  ])("answers %s itself (%i)", async (path, status) => {
    const { forwarded, send } = edgeWithRecordingApi();
    const response = await send(path);
    expect(response.status).toBe(status);
    expect(response.headers.get("X-Request-Id")).toMatch(/^req_/);
    expect(forwarded).toEqual([]);
  });

  it("runs in production with a gate configured, holding none of the gate's secrets", async () => {
    // The registrations' authentication is the API Worker's secret alone.
    const { send } = edgeWithRecordingApi(undefined, {
      DEPLOYMENT: "production",
      BASE_URL: "https://deca.example",
      EFTI_GATE_URL: "https://gate.example/api/platform",
    });
    expect((await send(NEVER_ISSUED)).status).toBe(404);
    expect((await send("/")).status).toBe(200);
  });

  it("answers a wrong method on its own paths with its 405", async () => {
    const { forwarded, send } = edgeWithRecordingApi();
    const response = await send(NEVER_ISSUED, { method: "POST" });
    expect(response.status).toBe(405);
    expect(forwarded).toEqual([]);
  });

  it.each([
    ["GET", "/api/v1/documents"],
    ["POST", "/api/v1/documents"],
    ["GET", "/api/v1/openapi.json"],
    ["POST", "/ops/v1/keys"],
    ["GET", "/nowhere"],
    ["GET", "/d/"],
  ])(
    "hands %s %s to the API Worker as it came, and its answer back untouched",
    async (method, path) => {
      const { forwarded, send } = edgeWithRecordingApi();
      const body = method === "POST" ? '{"a":1}' : undefined;
      const response = await send(path, {
        method,
        body,
        headers: { Authorization: "Bearer sk_test_x", "X-Custom": "kept" },
      });
      expect(response.status).toBe(418);
      expect([...response.headers]).toEqual([
        ["content-type", "text/plain;charset=UTF-8"],
        ["x-from", "api"],
      ]);
      expect(await response.text()).toBe("from the API Worker");
      expect(forwarded).toHaveLength(1);
      const [request] = forwarded;
      expect(request?.method).toBe(method);
      expect(request?.url).toBe(`${ORIGIN}${path}`);
      expect(request?.headers.get("Authorization")).toBe("Bearer sk_test_x");
      expect(request?.headers.get("X-Custom")).toBe("kept");
      expect(body && (await request?.text())).toBe(body);
    },
  );
});

describe("the edge Worker when the API Worker cannot answer", () => {
  const logged = capturedLog();

  it("answers 500 with the error body, its own request id and no-store", async () => {
    const { forwarded, send } = edgeWithRecordingApi(
      new Error("Service binding API: connection reset"),
    );
    const response = await send("/api/v1/documents", {
      headers: { Authorization: "Bearer sk_test_x" },
    });
    expect(forwarded).toHaveLength(1);
    expect(response.status).toBe(500);
    const requestId = response.headers.get("X-Request-Id");
    expect(requestId).toMatch(/^req_/);
    expect(response.headers.get("Cache-Control")).toBe("no-store, private");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(await response.json()).toEqual({
      errors: [
        {
          field: null,
          code: "INTERNAL_ERROR",
          message: expect.stringContaining(requestId ?? "no id"),
        },
      ],
    });
    const failure = logged.find((line) => line.includes("connection reset"));
    expect(failure && JSON.parse(failure)).toMatchObject({
      request_id: requestId,
      message: "Service binding API: connection reset",
    });
  });
});

describe("the API Worker", () => {
  const api = createApiApp(dependencies);
  const send = async (path: string) => {
    const context = createExecutionContext();
    const response = await api.fetch(
      new Request(`${ORIGIN}${path}`),
      env,
      context,
    );
    await waitOnExecutionContext(context);
    return response;
  };

  it("serves no page: they are the edge Worker's assets", async () => {
    for (const path of ["/", "/docs", "/play/play.js"]) {
      const response = await send(path);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toMatchObject({
        errors: [{ code: "NOT_FOUND" }],
      });
    }
  });

  it("answers a QR link as the edge Worker does, byte for byte", async () => {
    const owner = await createCredential();
    const document = await documentsApi(call, owner.key).issue(fullRequest());
    const link = qrPath(document.url);
    // HEAD: the answer without recording an access.
    for (const [path, method] of [
      [link, "HEAD"],
      [NEVER_ISSUED, "GET"],
    ] as const) {
      const throughEdge = await call(path, { method });
      const context = createExecutionContext();
      const direct = await api.fetch(
        new Request(`${ORIGIN}${path}`, { method }),
        env,
        context,
      );
      await waitOnExecutionContext(context);
      expect(await comparable(direct)).toEqual(await comparable(throughEdge));
    }
    const [viaEdge, viaApi] = [await call(link), await send(link)];
    expect(viaApi.status).toBe(200);
    expect(new Uint8Array(await viaApi.arrayBuffer())).toEqual(
      new Uint8Array(await viaEdge.arrayBuffer()),
    );
  });
});
