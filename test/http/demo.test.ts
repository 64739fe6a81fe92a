import {
  createExecutionContext,
  createScheduledController,
  env,
} from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fullRequest, minimalRequest } from "../../fixtures/requests";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import { createScheduledHandler } from "../../src/scheduled";
import { createCredential } from "../helpers/credentials";
import { documentsApi, qrPath, sha256Of } from "../helpers/documents-api";
import { rowsOfAllShards } from "../helpers/shards";
import { callWithClock, fixedClock, fromIp, ORIGIN } from "../helpers/worker";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const START = Date.UTC(2026, 10, 21, 10);

let ipCounter = 0;
/** A fresh client IP per test, so that per-IP limits never leak between tests. */
const newIp = () => `198.51.100.${++ipCounter}`;

function demo(clock = fixedClock(START), bindings: Env = env) {
  const request = callWithClock(clock, bindings);
  const ip = newIp();
  const requestToken = (body: unknown = {}, address = ip) =>
    request("/api/v1/demo/tokens", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "CF-Connecting-IP": address,
      },
      body: JSON.stringify(body),
    });
  async function token(body: unknown = {}): Promise<string> {
    const response = await requestToken(body);
    if (response.status !== 201)
      throw new Error(`token: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { token: string }).token;
  }
  const api = (key: string, address = ip) =>
    documentsApi(fromIp(request, address), key);
  return { clock, request, ip, requestToken, token, api };
}

async function expectRateLimited(response: Response, retryAfter: number) {
  expect(response.status).toBe(429);
  expect(response.headers.get("Retry-After")).toBe(String(retryAfter));
  expect(await response.json()).toEqual({
    errors: [
      { field: null, code: "DEMO_RATE_LIMITED", message: expect.any(String) },
    ],
  });
}

describe("POST /api/v1/demo/tokens", () => {
  it("issues a token for 24 hours in the chosen language, es by default", async () => {
    const { requestToken } = demo();
    const response = await requestToken();
    expect(response.status).toBe(201);
    const body = (await response.json()) as Record<string, string>;
    expect(body).toEqual({
      token: expect.stringMatching(/^sk_demo_[0-9A-Za-z]{32,}$/),
      expires_at: new Date(START + DAY).toISOString(),
      document_locale: "es",
    });
    const french = await requestToken({ document_locale: "fr" });
    expect(await french.json()).toMatchObject({ document_locale: "fr" });
  });

  it("stores the token only as a hash", async () => {
    const { token } = demo();
    const key = await token();
    const { results } = await env.DB_0.prepare(
      "SELECT * FROM credentials WHERE environment = 'demo'",
    ).all();
    expect(JSON.stringify(results)).not.toContain(key);
  });

  it("answers 422, 415, 413 and 400 for bad bodies", async () => {
    const { request, requestToken } = demo();
    const invalid = await requestToken({
      document_locale: "de",
      theme: "dark",
    });
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toEqual({
      errors: [
        {
          field: "document_locale",
          code: "INVALID_VALUE",
          message: "Must be one of es, ca, gl, ca-valencia, eu, en, pt-pt, fr.",
        },
        { field: "theme", code: "UNKNOWN_FIELD", message: expect.any(String) },
      ],
    });
    const wrongType = await requestToken({ document_locale: 1 }, newIp());
    expect(wrongType.status).toBe(422);
    expect(await wrongType.json()).toEqual({
      errors: [
        {
          field: "document_locale",
          code: "INVALID_TYPE",
          message: "Expected a string.",
        },
      ],
    });
    const post = (body: string, type = "application/json") =>
      request("/api/v1/demo/tokens", {
        method: "POST",
        headers: { "Content-Type": type, "CF-Connecting-IP": newIp() },
        body,
      });
    expect((await post("{}", "text/plain")).status).toBe(415);
    expect(
      (await post(JSON.stringify({ pad: "x".repeat(32 * 1024) }))).status,
    ).toBe(413);
    expect((await post("[]")).status).toBe(400);
  });

  it("allows 3 tokens a minute per IP: the 4th waits for the first to age out", async () => {
    const { clock, requestToken } = demo();
    for (let i = 0; i < 3; i++) {
      expect((await requestToken()).status).toBe(201);
      clock.advance(1_000);
    }
    await expectRateLimited(await requestToken(), 57);
    expect((await requestToken({}, newIp())).status).toBe(201);
    clock.set(START + MINUTE - 1);
    await expectRateLimited(await requestToken(), 1);
    clock.set(START + MINUTE);
    expect((await requestToken()).status).toBe(201);
  });

  it("allows 10 tokens an hour per IP: the 11th is refused until the hour passes", async () => {
    const { clock, requestToken } = demo();
    for (let i = 0; i < 10; i++) {
      clock.set(START + i * 6 * MINUTE);
      expect((await requestToken()).status).toBe(201);
    }
    clock.set(START + 55 * MINUTE);
    await expectRateLimited(await requestToken(), 5 * 60);
    clock.set(START + HOUR);
    expect((await requestToken()).status).toBe(201);
  });

  it("counts a refused request: a bot gains nothing by retrying", async () => {
    const { requestToken } = demo();
    for (let i = 0; i < 3; i++) await requestToken({ document_locale: "xx" });
    expect((await requestToken()).status).toBe(429);
  });
});

describe("demo limits of an IPv6 caller", () => {
  let networkCounter = 0;
  /** A fresh /64 per test: its prefix, compressed and written out in full. */
  const newNetwork = () => {
    const n = ++networkCounter;
    return {
      prefix: `2001:db8:${n.toString(16)}:1`,
      spelledOut: `2001:0db8:${n.toString(16).padStart(4, "0")}:0001`,
    };
  };

  it("counts tokens by the /64: rotating addresses within it gains nothing", async () => {
    const { requestToken } = demo();
    const { prefix, spelledOut } = newNetwork();
    for (const address of [
      `${prefix}:0:0:0:1`,
      `${prefix}::2`,
      `${prefix}:ab:cd:ef:12`.toUpperCase(),
    ]) {
      expect((await requestToken({}, address)).status).toBe(201);
    }
    await expectRateLimited(
      await requestToken({}, `${spelledOut}:ffff:ffff:ffff:ffff`),
      60,
    );
    expect((await requestToken({}, `${newNetwork().prefix}::1`)).status).toBe(
      201,
    );
  });

  it("counts documents by the /64, across the tokens of its addresses", async () => {
    const { requestToken, request } = demo();
    const { prefix } = newNetwork();
    const apiFrom = async (address: string) => {
      const response = await requestToken({}, address);
      const { token } = (await response.json()) as { token: string };
      return documentsApi(fromIp(request, address), token);
    };
    const apis = [await apiFrom(`${prefix}::1`), await apiFrom(`${prefix}::2`)];
    for (let i = 0; i < 5; i++) {
      const api = apis[i % 2];
      expect((await api?.create(minimalRequest()))?.status).toBe(201);
    }
    await expectRateLimited(
      await (apis[1] as (typeof apis)[number]).create(minimalRequest()),
      60,
    );
  });

  it("counts an IPv4-mapped IPv6 address as its IPv4 address", async () => {
    const { requestToken, ip } = demo();
    for (let i = 0; i < 3; i++) {
      expect((await requestToken({}, `::ffff:${ip}`)).status).toBe(201);
    }
    await expectRateLimited(await requestToken({}, ip), 60);
  });

  it("binds a token to its exact address, not to the /64", async () => {
    const { requestToken, request } = demo();
    const { prefix } = newNetwork();
    const response = await requestToken({}, `${prefix}::1`);
    const { token } = (await response.json()) as { token: string };
    const listFrom = (address: string) =>
      documentsApi(fromIp(request, address), token).list();
    expect((await listFrom(`${prefix}::1`)).status).toBe(200);
    expect((await listFrom(`${prefix}::2`)).status).toBe(403);
  });
});

describe("demo documents", () => {
  it("answers variant 2 with demo links, in the token's language", async () => {
    const { token, api } = demo();
    const key = await token({ document_locale: "gl" });
    const response = await api(key).create(fullRequest());
    expect(response.status).toBe(201);
    const result = (await response.json()) as Record<string, unknown>;
    expect(result).toMatchObject({
      demo: true,
      expires_at: new Date(START + DAY).toISOString(),
      document_locale: "gl",
    });
    expect(result.url).toMatch(
      new RegExp(`^${ORIGIN}/demo/d/${result.uuid}\\?k=`),
    );
    expect(result.qr_url).toBe(result.url);
    expect(result.pdf_url).toBe(result.pdf_download_url);
    expect(Object.keys(result).slice(-4)).toEqual([
      "demo",
      "expires_at",
      "qr_url",
      "pdf_url",
    ]);
  });

  it("serves the demo QR link until the session ends, and never through /d/", async () => {
    const { clock, request, token, api } = demo();
    const key = await token();
    const document = (await (
      await api(key).create(minimalRequest())
    ).json()) as { url: string; uuid: string };
    expect((await request(qrPath(document.url))).status).toBe(200);
    const realPath = qrPath(document.url).replace("/demo/d/", "/d/");
    expect((await request(realPath)).status).toBe(404);
    clock.set(START + DAY - 1);
    expect((await request(qrPath(document.url))).status).toBe(200);
    clock.set(START + DAY);
    expect((await request(qrPath(document.url))).status).toBe(404);
    expect((await api(key).list()).status).toBe(401);
  });

  it("never serves a real document through /demo/d/", async () => {
    const { request } = demo();
    const owner = await createCredential();
    const document = await documentsApi(request, owner.key).issue(
      minimalRequest(),
    );
    expect(
      (await request(qrPath(document.url).replace("/d/", "/demo/d/"))).status,
    ).toBe(404);
  });

  it("answers 403 IP_NOT_ALLOWED from another IP", async () => {
    const { token, api } = demo();
    const key = await token();
    const response = await api(key, newIp()).list();
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      errors: [{ code: "IP_NOT_ALLOWED" }],
    });
  });

  it("binds a token requested without a client IP to requests without one", async () => {
    const { request } = demo();
    const response = await request("/api/v1/demo/tokens", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    const { token: key } = (await response.json()) as { token: string };
    expect((await documentsApi(request, key).list()).status).toBe(200);
    const fromSomewhere = await request("/api/v1/documents", {
      headers: { Authorization: `Bearer ${key}`, "CF-Connecting-IP": newIp() },
    });
    expect(fromSomewhere.status).toBe(403);
  });

  it("scopes documents to the token", async () => {
    const { token, api, ip } = demo();
    const first = await token();
    const second = await token();
    const document = (await (
      await api(first).create(minimalRequest())
    ).json()) as { uuid: string };
    expect((await api(second, ip).get(document.uuid)).status).toBe(404);
    expect((await api(first, ip).get(document.uuid)).status).toBe(200);
  });

  it("limits a demo body to 32 KiB", async () => {
    const { token, api } = demo();
    const body = minimalRequest();
    body.metadata = { pad: "x".repeat(32 * 1024) };
    expect((await api(await token()).create(body)).status).toBe(413);
  });

  it("allows 5 documents a minute per IP: the 6th is refused", async () => {
    const { token, api, clock } = demo();
    const key = await token();
    for (let i = 0; i < 5; i++) {
      expect((await api(key).create(minimalRequest())).status).toBe(201);
    }
    await expectRateLimited(await api(key).create(minimalRequest()), 60);
    clock.set(START + MINUTE);
    expect((await api(key).create(minimalRequest())).status).toBe(201);
  });

  it("allows 20 documents an hour per IP: the 21st is refused", async () => {
    const { token, api, clock } = demo();
    const keys = [await token(), await token(), await token()];
    for (let i = 0; i < 20; i++) {
      clock.set(START + i * 2 * MINUTE);
      const key = keys[Math.floor(i / 8)] as string;
      expect((await api(key).create(minimalRequest())).status).toBe(201);
    }
    clock.set(START + 50 * MINUTE);
    await expectRateLimited(
      await api(keys[2] as string).create(minimalRequest()),
      10 * 60,
    );
  });

  it("limits every request of the demo tokens of one network, reads included", async () => {
    const { token, api, clock } = demo(fixedClock(START), {
      ...env,
      DEMO_REQUESTS_PER_MINUTE: "4",
    } as Env);
    const key = await token();
    const document = (await (
      await api(key).create(minimalRequest())
    ).json()) as { uuid: string };
    clock.advance(1_000);
    expect((await api(key).get(document.uuid)).status).toBe(200);
    expect((await api(key).status(document.uuid)).status).toBe(200);
    expect((await api(key).pdf(document.uuid)).status).toBe(200);
    await expectRateLimited(await api(key).list(), 59);
    // Another token of the same address: the same network's count.
    const another = await token();
    await expectRateLimited(await api(another).get(document.uuid), 59);
    clock.set(START + MINUTE);
    expect((await api(key).list()).status).toBe(200);
  });

  it("allows 10 documents per token, corrections included, without Retry-After", async () => {
    const { token, api, clock } = demo();
    const key = await token();
    const first = (await (await api(key).create(fullRequest())).json()) as {
      uuid: string;
    };
    const correction = fullRequest();
    correction.reference = "CORR-1";
    clock.advance(4 * MINUTE);
    expect((await api(key).rectify(first.uuid, correction)).status).toBe(200);
    for (let i = 2; i < 10; i++) {
      clock.advance(4 * MINUTE);
      expect((await api(key).create(minimalRequest())).status).toBe(201);
    }
    clock.advance(4 * MINUTE);
    const eleventh = await api(key).create(minimalRequest());
    expect(eleventh.status).toBe(429);
    expect(eleventh.headers.get("Retry-After")).toBeNull();
    expect(await eleventh.json()).toEqual({
      errors: [
        {
          field: null,
          code: "DEMO_DOCUMENT_LIMIT",
          message: expect.any(String),
        },
      ],
    });
  });

  it("issues the 10th document to one of several racing requests only", async () => {
    const { token, api, clock } = demo(fixedClock(START));
    const key = await token();
    const issued: string[] = [];
    for (let i = 0; i < 9; i++) {
      clock.advance(4 * MINUTE);
      const response = await api(key).create(minimalRequest());
      expect(response.status).toBe(201);
      issued.push(((await response.json()) as { uuid: string }).uuid);
    }
    clock.advance(4 * MINUTE);
    const correction = { ...minimalRequest(), reference: "CORR-1" };
    const racing = await Promise.all([
      api(key).create(minimalRequest()),
      api(key).create(minimalRequest()),
      api(key).rectify(issued[0] as string, correction),
    ]);
    expect(racing.map((response) => response.status).sort()).toEqual(
      racing.some((response) => response.status === 200)
        ? [200, 429, 429]
        : [201, 429, 429],
    );
    for (const response of racing.filter((r) => r.status === 429)) {
      expect(await response.json()).toMatchObject({
        errors: [{ code: "DEMO_DOCUMENT_LIMIT" }],
      });
    }
    const { meta } = (await (await api(key).list()).json()) as {
      meta: { total: number };
    };
    expect(meta.total).toBe(10);
  });

  it("does not extend the session by creating or correcting", async () => {
    const { token, api, clock } = demo();
    const key = await token();
    clock.set(START + DAY - 1000);
    const document = (await (
      await api(key).create(minimalRequest())
    ).json()) as Record<string, unknown>;
    expect(document.expires_at).toBe(new Date(START + DAY).toISOString());
    clock.set(START + DAY);
    expect((await api(key).get(document.uuid as string)).status).toBe(401);
  });
});

describe("the demo switch", () => {
  it("answers 503 DEMO_UNAVAILABLE for tokens, demo QR links and demo document routes", async () => {
    const on = demo();
    const key = await on.token();
    const document = (await (
      await on.api(key).create(minimalRequest())
    ).json()) as { url: string };
    const off = { ...env, DEMO_ENABLED: "false" };
    const offDemo = demo(on.clock, off);
    const unavailable = async (response: Response) => {
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({
        errors: [
          {
            field: null,
            code: "DEMO_UNAVAILABLE",
            message: expect.any(String),
          },
        ],
      });
    };
    await unavailable(await offDemo.requestToken());
    await unavailable(await offDemo.request(qrPath(document.url)));
    await unavailable(await offDemo.api(key, on.ip).list());
    const owner = await createCredential();
    expect((await documentsApi(offDemo.request, owner.key).list()).status).toBe(
      200,
    );
  });
});

describe("purge of expired demo sessions", () => {
  it("removes everything of an expired session and nothing else", async () => {
    const early = demo(fixedClock(START - 2 * HOUR));
    const expiredKey = await early.token();
    const withReference = fullRequest();
    withReference.reference = "DEMO-REF";
    const expired = await Promise.all(
      [withReference, minimalRequest()].map(async (body) => {
        const response = await early.api(expiredKey).create(body);
        return ((await response.json()) as { uuid: string }).uuid;
      }),
    );

    const late = demo(fixedClock(START + HOUR));
    const liveKey = await late.token();
    const live = (await (
      await late.api(liveKey).create(minimalRequest())
    ).json()) as { uuid: string };
    const owner = await createCredential();
    const real = await documentsApi(late.request, owner.key).issue(
      minimalRequest(),
    );

    await createScheduledHandler({
      clock: fixedClock(START + DAY - HOUR),
      renderPdf: renderDocumentPdf,
    })(createScheduledController(), env, createExecutionContext());

    const rows = async (sql: string, ...values: string[]) =>
      (await rowsOfAllShards(sql, ...values)).length;
    const hash = sha256Of;
    for (const uuid of expired) {
      expect(await env.PDFS.head(`documents/${uuid}.pdf`)).toBeNull();
      expect(await rows("SELECT 1 FROM documents WHERE uuid = ?", uuid)).toBe(
        0,
      );
      expect(
        await rows("SELECT 1 FROM audit_events WHERE document_uuid = ?", uuid),
      ).toBe(0);
    }
    expect(
      await rows(
        "SELECT 1 FROM reference_reservations WHERE document_uuid = ?",
        expired[0] as string,
      ),
    ).toBe(0);
    expect(
      await rows(
        "SELECT 1 FROM credentials WHERE key_hash = ?",
        await hash(expiredKey),
      ),
    ).toBe(0);

    for (const uuid of [live.uuid, real.uuid]) {
      expect(await env.PDFS.head(`documents/${uuid}.pdf`)).not.toBeNull();
      expect(await rows("SELECT 1 FROM documents WHERE uuid = ?", uuid)).toBe(
        1,
      );
    }
    expect(
      await rows(
        "SELECT 1 FROM credentials WHERE key_hash = ?",
        await hash(liveKey),
      ),
    ).toBe(1);
    expect((await late.api(liveKey).get(live.uuid)).status).toBe(200);
  });
});
