import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../src/env";
import { handleError } from "../../src/http/error-handler";
import { readJsonObject } from "../../src/http/json-body";
import { requestId } from "../../src/http/middleware/request-id";

// The body reader every JSON route uses, mounted on a bare route so that its
// answers are seen exactly as a client sees them.
const LIMIT = 1024;
const app = new Hono<AppEnv>()
  .use(requestId)
  .post("/echo", async (c) => c.json(await readJsonObject(c.req.raw, LIMIT)))
  .onError(handleError);

const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
  app.request("/echo", { method: "POST", body, headers });

const json = { "Content-Type": "application/json" };

function streamOf(size: number, chunk = 100): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      const length = Math.min(chunk, size - sent);
      controller.enqueue(new TextEncoder().encode(" ".repeat(length)));
      sent += length;
    },
  });
}

async function errorOf(response: Response) {
  const body = (await response.json()) as {
    errors: { field: unknown; code: string; message: string }[];
  };
  expect(body.errors).toHaveLength(1);
  return body.errors[0];
}

describe("JSON request bodies", () => {
  it("accepts a JSON object with a charset parameter", async () => {
    const response = await post('{"a":1}', {
      "Content-Type": "application/json; charset=utf-8",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ a: 1 });
  });

  it.each([
    ["text/plain", "text/plain"],
    ["a JSON-like vendor type", "application/vnd.api+json"],
    ["form data", "application/x-www-form-urlencoded"],
  ])("answers 415 UNSUPPORTED_MEDIA_TYPE for %s", async (_, type) => {
    const response = await post('{"a":1}', { "Content-Type": type });
    expect(response.status).toBe(415);
    expect(await errorOf(response)).toMatchObject({
      field: null,
      code: "UNSUPPORTED_MEDIA_TYPE",
    });
  });

  it("answers 415 for a body sent without any Content-Type", async () => {
    const response = await app.request("/echo", {
      method: "POST",
      body: new Blob(['{"a":1}']),
    });
    expect(response.status).toBe(415);
  });

  it("answers 413 PAYLOAD_TOO_LARGE when Content-Length announces too much", async () => {
    const response = await post("x".repeat(LIMIT + 1), json);
    expect(response.status).toBe(413);
    expect(await errorOf(response)).toMatchObject({
      field: null,
      code: "PAYLOAD_TOO_LARGE",
    });
  });

  it("answers 413 while reading a body sent without Content-Length", async () => {
    const response = await post(streamOf(LIMIT + 1), json);
    expect(response.status).toBe(413);
    expect((await errorOf(response))?.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("accepts a body of exactly the limit", async () => {
    const body = `{"a":"${"x".repeat(LIMIT - 8)}"}`;
    expect(body.length).toBe(LIMIT);
    const response = await post(body, json);
    expect(response.status).toBe(200);
  });

  it.each([
    ["broken JSON", '{"a":'],
    ["an empty body", ""],
    ["an array", "[1,2]"],
    ["a string", '"text"'],
    ["null", "null"],
  ])("answers 400 MALFORMED_JSON for %s", async (_, body) => {
    const response = await post(body, json);
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({
      field: null,
      code: "MALFORMED_JSON",
    });
  });

  it("answers 400 for bytes that are not UTF-8", async () => {
    const response = await post(new Uint8Array([0x7b, 0xff, 0x7d]), json);
    expect(response.status).toBe(400);
  });
});
