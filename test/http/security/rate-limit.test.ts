import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fullRequest } from "../../../fixtures/requests";
import { createApiApp } from "../../../src/api-app";
import { DEFAULT_REQUESTS_PER_MINUTE } from "../../../src/domain/credential-rate-limit";
import { renderDocumentPdf } from "../../../src/pdf/render-document";
import { CallLedger, countingBindings } from "../../helpers/counting-bindings";
import { createCredential } from "../../helpers/credentials";
import { expectContractError } from "../../helpers/error-contract";
import { rateLimiterDown } from "../../helpers/faults";
import { rowsOfAllShards } from "../../helpers/shards";
import {
  bearer,
  callWithClock,
  fixedClock,
  fromIp,
  HEAVY_TEST_MS,
  jsonRequest,
  ORIGIN,
} from "../../helpers/worker";

const NOW = Date.UTC(2026, 10, 21, 9, 30);
const MINUTE = 60_000;
const NEVER_ISSUED = "/api/v1/documents/00000000-0000-4000-8000-000000000000";

describe("per-credential rate limit", () => {
  it("allows the credential's own limit on a sliding minute, exactly", async () => {
    const { key } = await createCredential({ rateLimitPerMinute: 3 });
    const clock = fixedClock(NOW);
    const request = callWithClock(clock);
    const statusAt = async (at: number) => {
      clock.set(at);
      return (await request(NEVER_ISSUED, bearer(key))).status;
    };
    expect(await statusAt(NOW)).toBe(404);
    expect(await statusAt(NOW + 10_000)).toBe(404);
    expect(await statusAt(NOW + 20_000)).toBe(404);

    clock.set(NOW + MINUTE - 1);
    const refused = await request(NEVER_ISSUED, bearer(key));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe("1");
    expect(await refused.json()).toEqual({
      errors: [
        {
          field: null,
          code: "RATE_LIMITED",
          message: "Too many requests with this API key; retry in 1 seconds.",
        },
      ],
    });

    // The first request leaves the window at exactly one minute; the refused one never counted.
    expect(await statusAt(NOW + MINUTE)).toBe(404);
    expect(await statusAt(NOW + MINUTE)).toBe(429);
    const later = await request(NEVER_ISSUED, bearer(key));
    expect(later.headers.get("Retry-After")).toBe("10");
    expect(await statusAt(NOW + MINUTE + 10_000)).toBe(404);
  });

  it(
    "defaults to 300 a minute, and counts each credential apart",
    async () => {
      const { key } = await createCredential();
      const other = await createCredential();
      const clock = fixedClock(NOW);
      const request = callWithClock(clock);
      const statuses = await Promise.all(
        Array.from({ length: DEFAULT_REQUESTS_PER_MINUTE }, async () => {
          return (await request(NEVER_ISSUED, bearer(key))).status;
        }),
      );
      expect(new Set(statuses)).toEqual(new Set([404]));
      expect(DEFAULT_REQUESTS_PER_MINUTE).toBe(300);
      const refused = await request(NEVER_ISSUED, bearer(key));
      expect(refused.status).toBe(429);
      expect(refused.headers.get("Retry-After")).toBe("60");
      expect((await request(NEVER_ISSUED, bearer(other.key))).status).toBe(404);
    },
    HEAVY_TEST_MS,
  );

  it("answers 429 before the media type, the size or the body is looked at", async () => {
    const { key } = await createCredential({ rateLimitPerMinute: 1 });
    const request = callWithClock(fixedClock(NOW));
    expect((await request("/api/v1/documents", bearer(key))).status).toBe(200);
    const response = await request("/api/v1/documents", {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "text/plain" },
      body: "x".repeat(200_000),
    });
    expect(response.status).toBe(429);
  });
});

/** A GET of `path` with `key` from `ip`: its status and the calls it made (test/helpers/counting-bindings.ts). */
function measuredGets(clock: ReturnType<typeof fixedClock>) {
  const ledger = new CallLedger();
  const app = createApiApp({ clock, renderPdf: renderDocumentPdf });
  const bindings = countingBindings(env, ledger);
  return async (path: string, key: string, ip: string) => {
    const { answer, calls } = await ledger.measureRequest(
      async () =>
        app.fetch(
          new Request(`${ORIGIN}${path}`, {
            headers: { Authorization: `Bearer ${key}`, "CF-Connecting-IP": ip },
          }),
          bindings,
          createExecutionContext(),
        ),
      async () => undefined,
    );
    return { status: answer.status, calls };
  };
}

describe("a key this isolate knows from this IP", () => {
  const clock = fixedClock(NOW);
  const request = callWithClock(clock);
  const A = "192.0.2.61";
  const B = "192.0.2.62";
  // Wherever its key's hash put it.
  const setCredential = (id: string, column: string, value: unknown) =>
    rowsOfAllShards(
      `UPDATE credentials SET ${column} = ? WHERE id = ?`,
      value,
      id,
    );

  it("has its request counted while the key is checked, one round trip for both", async () => {
    const { key } = await createCredential();
    const get = measuredGets(clock);
    const chainFrom = async (ip: string) =>
      (await get(NEVER_ISSUED, key, ip)).calls
        .filter(({ label }) => /credentials|RATE_LIMITER/.test(label))
        .map(({ label, depth }) => [depth, label]);
    const sequential = [
      [1, "D1 select credentials"],
      [2, "RATE_LIMITER consume"],
    ];
    expect(await chainFrom(A)).toEqual(sequential);
    expect(await chainFrom(A)).toEqual([
      [1, "RATE_LIMITER consume"],
      [1, "D1 select credentials"],
    ]);
    // Known from A only: from B the key is checked before anything counts.
    expect(await chainFrom(B)).toEqual(sequential);
  });

  it("answers a key over its limit 429 before its read costs anything, known to this isolate or not", async () => {
    const { key, id } = await createCredential({ rateLimitPerMinute: 2 });
    const request = callWithClock(fixedClock(NOW));
    const fromA = fromIp(request, A);
    const created = await fromA(
      "/api/v1/documents",
      jsonRequest("POST", key, fullRequest()),
    );
    const { uuid } = (await created.json()) as { uuid: string };
    expect((await fromA(`/api/v1/documents/${uuid}`, bearer(key))).status).toBe(
      200,
    );
    const get = measuredGets(fixedClock(NOW));
    // From B the key is new to this isolate; from A it is known, and its
    // count runs beside the key's check. Either way: no document read, no
    // PDF fetched (nor decrypted), no download recorded.
    for (const ip of [B, A]) {
      const refused = await get(`/api/v1/documents/${uuid}/pdf`, key, ip);
      expect(refused.status, ip).toBe(429);
      expect(refused.calls.map(({ label }) => label).sort(), ip).toEqual([
        "D1 select credentials",
        "RATE_LIMITER consume",
      ]);
    }
    expect(
      await rowsOfAllShards(
        "SELECT type FROM audit_events WHERE credential_id = ? AND type = 'pdf_downloaded'",
        id,
      ),
    ).toEqual([]);
  });

  it("is refused with 401 once revoked, not with the 429 its count says", async () => {
    const { key, id } = await createCredential({ rateLimitPerMinute: 1 });
    const fromA = fromIp(request, A);
    expect((await fromA("/api/v1/documents", bearer(key))).status).toBe(200);
    expect((await fromA("/api/v1/documents", bearer(key))).status).toBe(429);
    await setCredential(id, "revoked_at", NOW);
    expect((await fromA("/api/v1/documents", bearer(key))).status).toBe(401);
  });

  it("spends nothing of its budget on unknown keys or on IPs it does not allow", async () => {
    // A clock of its own: the window must pass within this test.
    const clock = fixedClock(NOW);
    const request = callWithClock(clock);
    const { key } = await createCredential({
      rateLimitPerMinute: 2,
      allowedIps: [A],
    });
    const unknown = `sk_test_${"x".repeat(40)}`;
    const statusFrom = async (ip: string, withKey = key) =>
      (await fromIp(request, ip)(NEVER_ISSUED, bearer(withKey))).status;
    expect([await statusFrom(A), await statusFrom(A)]).toEqual([404, 404]);
    expect([await statusFrom(B), await statusFrom(B)]).toEqual([403, 403]);
    expect([
      await statusFrom(A, unknown),
      await statusFrom(B, unknown),
    ]).toEqual([401, 401]);
    clock.set(NOW + MINUTE);
    expect(await statusFrom(B)).toBe(403);
    expect([await statusFrom(A), await statusFrom(A)]).toEqual([404, 404]);
    expect(await statusFrom(A)).toBe(429);
  });

  it("is counted on its credential's limit as it is now, raised or lowered", async () => {
    const raised = await createCredential({ rateLimitPerMinute: 1 });
    const fromA = fromIp(request, A);
    const statusOf = (key: string) => fromA(NEVER_ISSUED, bearer(key));
    expect((await statusOf(raised.key)).status).toBe(404);
    expect((await statusOf(raised.key)).status).toBe(429);
    await setCredential(raised.id, "rate_limit_per_minute", 3);
    expect((await statusOf(raised.key)).status).toBe(404);

    const lowered = await createCredential({ rateLimitPerMinute: 5 });
    expect((await statusOf(lowered.key)).status).toBe(404);
    expect((await statusOf(lowered.key)).status).toBe(404);
    await setCredential(lowered.id, "rate_limit_per_minute", 2);
    expect((await statusOf(lowered.key)).status).toBe(429);
  });
});

describe("an unreachable rate limiter", () => {
  // An outage of a dependency, like R2 or the lock (docs/api.md, Errors): 503 with
  // Retry-After, for every caller the limiter counts.
  const request = callWithClock(fixedClock(NOW), rateLimiterDown());
  const IP = { "CF-Connecting-IP": "192.0.2.44" };

  async function expectUnavailable(response: Response) {
    expect(response.status).toBe(503);
    expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
    const body = JSON.parse(await expectContractError(response));
    expect(body).toEqual({
      errors: [
        {
          field: null,
          code: "SERVICE_UNAVAILABLE",
          message: expect.any(String),
        },
      ],
    });
  }

  it("answers 503 SERVICE_UNAVAILABLE to every authenticated request", async () => {
    const { key } = await createCredential();
    await expectUnavailable(await request("/api/v1/documents", bearer(key)));
    await expectUnavailable(await request(NEVER_ISSUED, bearer(key)));
    await expectUnavailable(
      await request(
        "/api/v1/documents",
        jsonRequest("POST", key, fullRequest()),
      ),
    );
  });

  it("answers 503 for a demo token and for the documents of a demo token", async () => {
    await expectUnavailable(
      await request("/api/v1/demo/tokens", {
        method: "POST",
        headers: { "Content-Type": "application/json", ...IP },
        body: "{}",
      }),
    );
    const { key } = await createCredential({
      environment: "demo",
      expiresAt: NOW + 3_600_000,
      requesterIp: IP["CF-Connecting-IP"],
    });
    await expectUnavailable(
      await request(
        "/api/v1/documents",
        jsonRequest("POST", key, fullRequest(), IP),
      ),
    );
  });
});
