import { describe, expect, it } from "vitest";
import { DEFAULT_REQUESTS_PER_MINUTE } from "../../../src/domain/credential-rate-limit";
import { createCredential } from "../../helpers/credentials";
import { bearer, callWithClock, fixedClock } from "../../helpers/worker";

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

  it("defaults to 300 a minute, and counts each credential apart", async () => {
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
  }, 30_000);

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
