import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { systemClock } from "../../src/clock";
import { createCredential } from "../helpers/credentials";
import { bearer, callWith } from "../helpers/worker";

// The configuration is checked once per isolate, at the first request: a
// malformed value is a 500 with its cause in the log, never a silent default.

const SECRET = "not-json-but-secret-0123456789";

describe("a malformed configuration", () => {
  let errors: string[];

  beforeEach(() => {
    errors = [];
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      errors.push(args.map(String).join(" "));
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it.each([
    ["DEMO_TOKENS_PER_MINUTE", "ten"],
    ["DEMO_DOCUMENTS_PER_TOKEN", "0"],
    ["MAX_BODY_BYTES", "-1"],
    ["MAX_DEMO_BODY_BYTES", "32 KiB"],
    ["DEMO_ENABLED", "yes"],
    ["BASE_URL", "deca.example"],
    ["PDF_KEYRING", SECRET],
    ["QR_KEYRING", `{"current":"v1","keys":{"v1":"${SECRET}"}}`],
  ])(
    "%s=%j answers 500 INTERNAL_ERROR and logs which variable",
    async (name, value) => {
      const { key } = await createCredential();
      const request = callWith({
        clock: systemClock,
        bindings: { ...env, [name]: value },
      });
      for (let attempt = 0; attempt < 2; attempt++) {
        const response = await request("/api/v1/documents", bearer(key));
        expect(response.status).toBe(500);
        const requestId = response.headers.get("X-Request-Id") as string;
        expect(await response.json()).toEqual({
          errors: [
            {
              field: null,
              code: "INTERNAL_ERROR",
              message: expect.stringContaining(requestId),
            },
          ],
        });
        const logged = errors.find((line) => line.includes(requestId));
        expect(JSON.parse(logged as string)).toMatchObject({
          request_id: requestId,
          error: "ConfigError",
          message: expect.stringContaining(name),
        });
      }
      for (const line of errors) expect(line).not.toContain(SECRET);
    },
  );

  it("keeps the contract's figures for a variable that is not set", async () => {
    const { DEMO_DOCUMENTS_PER_TOKEN: _unset, ...bindings } = env;
    const { key } = await createCredential();
    const request = callWith({
      clock: systemClock,
      // Env declares every var of wrangler.toml; this one is left unset.
      bindings: bindings as unknown as Env,
    });
    expect((await request("/api/v1/documents", bearer(key))).status).toBe(200);
    expect(errors).toEqual([]);
  });
});
