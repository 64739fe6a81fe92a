import { describe, expect, it } from "vitest";
import { fullRequest } from "../../../fixtures/requests";
import { DEFAULT_REQUESTS_PER_MINUTE } from "../../../src/domain/credential-rate-limit";
import { createCredential } from "../../helpers/credentials";
import { expectContractError } from "../../helpers/error-contract";
import { rateLimiterDown } from "../../helpers/faults";
import {
  bearer,
  callWithClock,
  fixedClock,
  HEAVY_TEST_MS,
  jsonRequest,
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

describe("an unreachable rate limiter", () => {
  // An outage of a dependency, like R2 or the lock (decisions.md): 503 with
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
