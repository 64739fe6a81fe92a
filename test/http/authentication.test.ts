import { describe, expect, it } from "vitest";
import { createCredential } from "../helpers/credentials";
import { bearer, call, callWithClock, fixedClock } from "../helpers/worker";

const LIST = "/api/v1/documents";

async function expectUnauthenticated(response: Response): Promise<void> {
  expect(response.status).toBe(401);
  expect(response.headers.get("WWW-Authenticate")).toBe("Bearer");
  expect(await response.json()).toEqual({
    errors: [
      { field: null, code: "UNAUTHENTICATED", message: expect.any(String) },
    ],
  });
}

async function expectIpNotAllowed(response: Response): Promise<void> {
  expect(response.status).toBe(403);
  expect(await response.json()).toEqual({
    errors: [
      { field: null, code: "IP_NOT_ALLOWED", message: expect.any(String) },
    ],
  });
}

describe("Bearer authentication", () => {
  it("lets a valid test key in", async () => {
    const { key } = await createCredential();
    const response = await call(LIST, bearer(key));
    expect(response.status).toBe(200);
  });

  it("lets a valid live key in", async () => {
    const { key } = await createCredential({ environment: "live" });
    expect((await call(LIST, bearer(key))).status).toBe(200);
  });

  it("accepts the scheme name in any case", async () => {
    const { key } = await createCredential();
    const response = await call(LIST, {
      headers: { Authorization: `bearer ${key}` },
    });
    expect(response.status).toBe(200);
  });

  it("answers 401 without an Authorization header", async () => {
    await expectUnauthenticated(await call(LIST));
  });

  it.each([
    ["another scheme", (key: string) => `Basic ${key}`],
    ["no token", () => "Bearer"],
    ["the token alone", (key: string) => key],
    ["two tokens", (key: string) => `Bearer ${key} ${key}`],
    [
      "a key with a changed character",
      (key: string) =>
        `Bearer ${key.slice(0, -1)}${key.endsWith("a") ? "b" : "a"}`,
    ],
    [
      "an unknown prefix",
      (key: string) => `Bearer ${key.replace("sk_test_", "sk_prod_")}`,
    ],
    [
      "the key of another environment",
      (key: string) => `Bearer ${key.replace("sk_test_", "sk_live_")}`,
    ],
    [
      "a well-formed key that was never issued",
      () => `Bearer sk_test_${"A".repeat(40)}`,
    ],
    [
      "a random part that is too short",
      () => `Bearer sk_test_${"A".repeat(31)}`,
    ],
  ])("answers 401 for %s", async (_, header) => {
    const { key } = await createCredential();
    await expectUnauthenticated(
      await call(LIST, { headers: { Authorization: header(key) } }),
    );
  });

  it("answers 401 for a revoked key", async () => {
    const { key } = await createCredential({ revokedAt: Date.now() - 1 });
    await expectUnauthenticated(await call(LIST, bearer(key)));
  });

  it("answers 401 for a demo token at its expiry, not a millisecond before", async () => {
    const expiresAt = Date.UTC(2026, 10, 21, 12);
    const clock = fixedClock(expiresAt - 1);
    const request = callWithClock(clock);
    const { key } = await createCredential({
      environment: "demo",
      expiresAt,
      requesterIp: "198.51.100.4",
    });
    const fromRequester = bearer(key, { "CF-Connecting-IP": "198.51.100.4" });
    expect((await request(LIST, fromRequester)).status).toBe(200);
    clock.set(expiresAt);
    await expectUnauthenticated(await request(LIST, fromRequester));
  });

  it("authenticates before it looks at the query", async () => {
    await expectUnauthenticated(await call(`${LIST}?page=zero`));
  });
});

describe("IP allow-lists", () => {
  it("lets in a request from an allowed IP", async () => {
    const { key } = await createCredential({
      allowedIps: ["203.0.113.7", "2001:db8::1"],
    });
    for (const ip of ["203.0.113.7", "2001:db8::1"]) {
      const response = await call(
        LIST,
        bearer(key, { "CF-Connecting-IP": ip }),
      );
      expect(response.status).toBe(200);
    }
  });

  it("answers 403 IP_NOT_ALLOWED from an IP outside the list", async () => {
    const { key } = await createCredential({ allowedIps: ["203.0.113.7"] });
    await expectIpNotAllowed(
      await call(LIST, bearer(key, { "CF-Connecting-IP": "203.0.113.8" })),
    );
  });

  it("answers 403 when the request carries no client IP", async () => {
    const { key } = await createCredential({ allowedIps: ["203.0.113.7"] });
    await expectIpNotAllowed(await call(LIST, bearer(key)));
  });

  it("lets any IP in when the list is empty", async () => {
    const { key } = await createCredential({ allowedIps: [] });
    const response = await call(
      LIST,
      bearer(key, { "CF-Connecting-IP": "192.0.2.200" }),
    );
    expect(response.status).toBe(200);
  });

  it("binds a demo token to the IP that requested it", async () => {
    const { key } = await createCredential({
      environment: "demo",
      // Valid for an hour: the request below never outlives it, however slow.
      expiresAt: Date.now() + 3_600_000,
      requesterIp: "198.51.100.4",
    });
    await expectIpNotAllowed(
      await call(LIST, bearer(key, { "CF-Connecting-IP": "198.51.100.5" })),
    );
  });
});
