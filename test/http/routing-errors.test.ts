import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../src/clock";
import { shards } from "../helpers/shards";
import { call, callWith } from "../helpers/worker";

async function expectErrorBody(
  response: Response,
  status: number,
  code: string,
): Promise<{ field: string | null; code: string; message: string }> {
  expect(response.status).toBe(status);
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  expect(response.headers.get("X-Request-Id")).toMatch(/^req_[0-9A-Za-z]{24}$/);
  const body = (await response.json()) as {
    errors: { field: string | null; code: string; message: string }[];
  };
  expect(body.errors).toHaveLength(1);
  const [error] = body.errors;
  expect(error).toEqual({ field: null, code, message: expect.any(String) });
  return error as { field: string | null; code: string; message: string };
}

describe("routing errors", () => {
  it("answers an unknown path 404 NOT_FOUND in the error body, before any authentication", async () => {
    const response = await call("/api/v1/nothing-here");
    await expectErrorBody(response, 404, "NOT_FOUND");
    expect(response.headers.get("WWW-Authenticate")).toBeNull();
  });

  it("answers a known path with another method 405 with Allow, before any authentication", async () => {
    const response = await call("/api/v1/documents", { method: "PATCH" });
    await expectErrorBody(response, 405, "METHOD_NOT_ALLOWED");
    expect(response.headers.get("Allow")).toBe("GET, HEAD, POST");
  });

  it.each(["GET", "PUT", "DELETE"])(
    "answers %s on a path without parameters that a template also matches 405, as OpenAPI matches the concrete path first",
    async (method) => {
      const response = await call("/api/v1/documents/validate", {
        method,
        headers: { "Content-Type": "application/json" },
        ...(method === "PUT" ? { body: "{}" } : {}),
      });
      await expectErrorBody(response, 405, "METHOD_NOT_ALLOWED");
      expect(response.headers.get("Allow")).toBe("POST");
    },
  );

  it("gives every response its own request id", async () => {
    const first = await call("/nowhere");
    const second = await call("/nowhere");
    expect(first.headers.get("X-Request-Id")).not.toBe(
      second.headers.get("X-Request-Id"),
    );
  });

  it("ignores a request id sent by the client", async () => {
    const response = await call("/nowhere", {
      headers: { "X-Request-Id": "client-chosen" },
    });
    expect(response.headers.get("X-Request-Id")).not.toBe("client-chosen");
  });

  it("answers an unexpected failure 500 INTERNAL_ERROR with the request id and no stack", async () => {
    const brokenDatabase = {
      prepare() {
        throw new Error("disk on fire at /internal/path.ts:12");
      },
      batch() {
        throw new Error("disk on fire at /internal/path.ts:12");
      },
    } as unknown as D1Database;
    const request = callWith({
      clock: systemClock,
      bindings: {
        ...env,
        ...Object.fromEntries(
          shards.map((_, i) => [`DB_${i}`, brokenDatabase]),
        ),
      },
    });
    const response = await request("/api/v1/documents", {
      headers: { Authorization: `Bearer sk_test_${"a".repeat(40)}` },
    });
    const error = await expectErrorBody(response, 500, "INTERNAL_ERROR");
    expect(error.message).toContain(
      response.headers.get("X-Request-Id") as string,
    );
    expect(error.message).not.toMatch(/disk|internal|path\.ts|at /);
  });
});
