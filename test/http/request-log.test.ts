import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createCredential } from "../helpers/credentials";
import { bearer, call } from "../helpers/worker";

describe("request log", () => {
  let lines: string[];

  beforeEach(() => {
    lines = [];
    const capture = (...args: unknown[]) => {
      lines.push(args.map(String).join(" "));
    };
    vi.spyOn(console, "log").mockImplementation(capture);
    vi.spyOn(console, "error").mockImplementation(capture);
  });
  afterEach(() => vi.restoreAllMocks());

  it("writes one JSON line per request with the route pattern, never the raw URL", async () => {
    const { key, id } = await createCredential();
    const response = await call(
      "/api/v1/documents?page=1&limit=5",
      bearer(key),
    );
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0] as string);
    expect(entry).toEqual({
      request_id: response.headers.get("X-Request-Id"),
      method: "GET",
      route: "/api/v1/documents",
      status: 200,
      duration_ms: expect.any(Number),
      credential_id: id,
    });
  });

  it("never logs the Authorization header, a key or a QR secret", async () => {
    const { key } = await createCredential();
    const qrSecret = "QrSecretValue0123456789abcdef";
    await call("/api/v1/documents", bearer(key));
    await call("/api/v1/documents", bearer(`${key}x`));
    await call(`/d/0b7c2b4e-3d55-4d6c-9a4f-1a2b3c4d5e6f?k=${qrSecret}`);
    await call(`/demo/d/0b7c2b4e-3d55-4d6c-9a4f-1a2b3c4d5e6f?k=${qrSecret}`);
    await call(`/api/v1/documents?k=${qrSecret}&key=${key}`, bearer(key));
    expect(lines).toHaveLength(5);
    const log = lines.join("\n");
    expect(log).not.toContain(key);
    expect(log).not.toContain(key.slice(8));
    expect(log).not.toContain(qrSecret);
    expect(log).not.toMatch(/authorization|bearer|k=/i);
  });
});
