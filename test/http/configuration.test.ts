import {
  createExecutionContext,
  env,
  waitOnExecutionContext,
} from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fullRequest } from "../../fixtures/requests";
import { createApiApp } from "../../src/api-app";
import { systemClock } from "../../src/clock";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import { createCredential } from "../helpers/credentials";
import { bearer, callWith, jsonRequest } from "../helpers/worker";

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

  /** Every request answers 500 INTERNAL_ERROR, its log naming `name`. */
  async function expectRefusal(bindings: Env, name: string) {
    const { key } = await createCredential();
    const request = callWith({ clock: systemClock, bindings });
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
        code: "INTERNAL_ERROR",
        error: "ConfigError",
        message: expect.stringContaining(name),
      });
    }
    for (const line of errors) expect(line).not.toContain(SECRET);
  }

  it.each([
    ["DEMO_TOKENS_PER_MINUTE", "ten"],
    ["DEMO_DOCUMENTS_PER_TOKEN", "0"],
    ["DEMO_REQUESTS_PER_MINUTE", "300 a minute"],
    ["MAX_BODY_BYTES", "-1"],
    ["MAX_DEMO_BODY_BYTES", "32 KiB"],
    ["DEMO_ENABLED", "yes"],
    ["BASE_URL", "deca.example"],
    ["DEPLOYMENT", "staging"],
    ["SHARDS_BEFORE", "0"],
    ["SHARDS_BEFORE", "four"],
    ["PDF_KEYRING", SECRET],
    ["QR_KEYRING", `{"current":"v1","keys":{"v1":"${SECRET}"}}`],
    ["EFTI_EXTRA_SUBSETS", "ES01"],
    ["EFTI_EXTRA_SUBSETS", "ES06"],
    ["EFTI_EXTRA_SUBSETS", "ES02;ES03"],
  ])(
    "%s=%j answers 500 INTERNAL_ERROR and logs which variable",
    (name, value) => expectRefusal({ ...env, [name]: value }, name),
  );

  it.each([
    ["GATE_ALLOWED_IPS", "203.0.113.0/24, 10.0.0.0/33"],
    ["GATE_ALLOWED_IPS", "2001:db8::/129"],
    ["OPS_ALLOWED_IPS", "203.0.113.300"],
    ["OPS_ALLOWED_IPS", "2001:db8::1::2"],
  ])(
    "%s=%j answers 500 INTERNAL_ERROR and logs the invalid entry",
    (name, value) =>
      expectRefusal(
        { ...env, [name]: value },
        `${name}: "${value.split(", ").at(-1)}" is not an IP address or CIDR range`,
      ),
  );

  it.each(["", "http://deca.example"])(
    "production with BASE_URL=%j answers 500 INTERNAL_ERROR and logs that it must be https",
    async (baseUrl) => {
      await expectRefusal(
        { ...env, DEPLOYMENT: "production", BASE_URL: baseUrl },
        "BASE_URL must be the service's https:// origin in production",
      );
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

describe("production's links", () => {
  it("print the configured https origin in the PDF and the result, whatever scheme and host the request came on", async () => {
    const printed: string[] = [];
    const app = createApiApp({
      clock: systemClock,
      renderPdf: (input) => {
        printed.push(input.qrUrl);
        return renderDocumentPdf(input);
      },
    });
    const bindings = {
      ...env,
      DEPLOYMENT: "production",
      BASE_URL: "https://deca.example",
    };
    const { key } = await createCredential();
    const send = async (path: string, init: RequestInit) => {
      const request = new Request(`http://other-host.test${path}`, init);
      const context = createExecutionContext();
      const response = await app.fetch(request, bindings, context);
      await waitOnExecutionContext(context);
      return response;
    };
    const created = await send(
      "/api/v1/documents",
      jsonRequest("POST", key, fullRequest()),
    );
    expect(created.status).toBe(201);
    const result = (await created.json()) as Record<string, string>;
    expect(printed).toEqual([result.url]);
    expect(result.url).toMatch(
      new RegExp(`^https://deca\\.example/d/${result.uuid}\\?k=`),
    );
    expect(result.pdf_download_url).toBe(
      `https://deca.example/api/v1/documents/${result.uuid}/pdf`,
    );
    const read = await send(`/api/v1/documents/${result.uuid}`, bearer(key));
    expect(await read.json()).toMatchObject({ url: result.url });
  });
});
