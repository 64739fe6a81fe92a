import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { fullRequest } from "../../../fixtures/requests";
import { createCredential } from "../../helpers/credentials";
import { deletion, documentsApi, qrPath } from "../../helpers/documents-api";
import { bearer, call, callWith, fixedClock } from "../../helpers/worker";

const NOW = Date.UTC(2026, 10, 21, 9, 30);

function expectSecurityHeaders(response: Response, https = true): void {
  expect(response.headers.get("Referrer-Policy")).toBe("no-referrer");
  expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
  expect(response.headers.get("Strict-Transport-Security")).toBe(
    https ? "max-age=31536000; includeSubDomains" : null,
  );
}

describe("security headers", () => {
  it("are on every kind of answer served over HTTPS", async () => {
    const { key } = await createCredential();
    const api = documentsApi(call, key);
    const created = await api.create(fullRequest());
    expect(created.status).toBe(201);
    const document = (await created.clone().json()) as {
      uuid: string;
      url: string;
    };
    const failing = callWith({
      clock: fixedClock(NOW),
      renderPdf: () => Promise.reject(new Error("renderer down")),
    });
    const responses = [
      created,
      await api.get(document.uuid),
      await api.pdf(document.uuid),
      await api.list(),
      await call(qrPath(document.url)),
      await api.remove(document.uuid, deletion({ confirm_not_used: false })),
      await call("/api/v1/documents"),
      await call("/nowhere"),
      await call("/api/v1/documents", { method: "PATCH", ...bearer(key) }),
      await documentsApi(failing, key).create({
        ...fullRequest(),
        reference: null,
      }),
      await call("/api/v1/demo/tokens", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{",
      }),
    ];
    expect(responses.map((r) => r.status)).toEqual([
      201, 200, 200, 200, 200, 409, 401, 404, 405, 500, 400,
    ]);
    for (const response of responses) expectSecurityHeaders(response);
  });

  it("leave out Strict-Transport-Security on plain HTTP", async () => {
    const { key } = await createCredential();
    for (const init of [bearer(key), {}]) {
      const response = await exports.default.fetch(
        new Request("http://localhost:8787/api/v1/documents", init),
      );
      expect([200, 401]).toContain(response.status);
      expectSecurityHeaders(response, false);
    }
  });
});
