import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../../src/clock";
import { parseKeyring } from "../../../src/storage/keyring";
import { openWebhookSecret } from "../../../src/storage/webhook-secret-box";
import {
  createCredential,
  type TestCredential,
} from "../../helpers/credentials";
import { capturedLog } from "../../helpers/log";
import {
  endpointRow,
  homeOf,
  neighbourOf,
  webhookEndpointsApi,
  withQueue,
} from "../../helpers/webhook-endpoints";
import {
  bearer,
  callWith,
  callWithClock,
  fixedClock,
  fromIp,
} from "../../helpers/worker";

const NOW = Date.UTC(2026, 10, 21, 8, 30);
const MINUTE = 60_000;
const URL_A = "https://receiver.example/hooks";
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

async function owner(credential?: TestCredential) {
  const clock = fixedClock(NOW);
  const request = callWithClock(clock, withQueue([]));
  credential ??= await createCredential();
  return {
    clock,
    request,
    credential,
    api: webhookEndpointsApi(request, credential.key),
  };
}

describe("creating a webhook endpoint", () => {
  it("answers 201 with the endpoint and its secret, which only the create answer shows", async () => {
    const { api, credential } = await owner();
    const response = await api.create({
      url: URL_A,
      events: ["document.issued", "document.accessed"],
      description: "TMS",
    });
    expect(response.status).toBe(201);
    const created = (await response.json()) as Record<string, unknown>;
    expect(created).toEqual({
      id: expect.stringMatching(/^we_[0-9A-Za-z]{24}$/),
      url: URL_A,
      events: ["document.issued", "document.accessed"],
      description: "TMS",
      enabled: true,
      disabled_reason: null,
      failing_since: null,
      previous_secret_expires_at: null,
      created_at: new Date(NOW).toISOString(),
      updated_at: new Date(NOW).toISOString(),
      secret: expect.stringMatching(SECRET),
    });
    const { secret, ...endpoint } = created;
    const read = await api.get(endpoint.id as string);
    expect(await read.json()).toEqual(endpoint);
    const listed = await (await api.list()).text();
    expect(listed).not.toContain(secret as string);
    expect(listed).not.toContain('"secret"');

    // Stored sealed under WEBHOOK_KEYRING, bound to this endpoint.
    const row = await endpointRow(credential.id, endpoint.id as string);
    expect(row?.secret).not.toContain(secret as string);
    const keyring = parseKeyring(env.WEBHOOK_KEYRING, "WEBHOOK_KEYRING");
    expect(
      await openWebhookSecret(
        keyring,
        endpoint.id as string,
        row?.secret as string,
      ),
    ).toBe(secret);
    await expect(
      openWebhookSecret(keyring, "we_another", row?.secret as string),
    ).rejects.toThrow();
  });

  it("gives each endpoint its own secret, and a missing description null", async () => {
    const { api } = await owner();
    const first = await api.register({ url: URL_A, events: ["*"] });
    const second = await api.register({
      url: URL_A,
      events: ["*"],
      description: null,
    });
    expect(first.secret).not.toBe(second.secret);
    expect(first.id).not.toBe(second.id);
    expect([first.description, second.description]).toEqual([null, null]);
  });

  it("counts a type listed twice once", async () => {
    const { api } = await owner();
    const created = await api.register({
      url: URL_A,
      events: ["document.deleted", "document.issued", "document.deleted"],
    });
    expect(created.events).toEqual(["document.deleted", "document.issued"]);
  });

  it.each([
    [{ events: ["*"] }, "url", "REQUIRED"],
    [{ url: URL_A }, "events", "REQUIRED"],
    [{ url: URL_A, events: [] }, "events", "TOO_SHORT"],
    [{ url: URL_A, events: ["ping"] }, "events.0", "INVALID_VALUE"],
    [{ url: URL_A, events: ["document.created"] }, "events.0", "INVALID_VALUE"],
    [
      { url: URL_A, events: ["*", "document.issued"] },
      "events",
      "INVALID_VALUE",
    ],
    [{ url: URL_A, events: "*" }, "events", "INVALID_TYPE"],
    [{ url: 42, events: ["*"] }, "url", "INVALID_TYPE"],
    [{ url: "", events: ["*"] }, "url", "TOO_SHORT"],
    [
      { url: `https://receiver.example/${"a".repeat(2048)}`, events: ["*"] },
      "url",
      "TOO_LONG",
    ],
    [
      { url: URL_A, events: ["*"], description: "" },
      "description",
      "TOO_SHORT",
    ],
    [
      { url: URL_A, events: ["*"], description: "x".repeat(257) },
      "description",
      "TOO_LONG",
    ],
    [
      { url: URL_A, events: ["*"], description: "bell\u0007" },
      "description",
      "INVALID_FORMAT",
    ],
    [
      { url: URL_A, events: ["*"], secret: "whsec_mine" },
      "secret",
      "UNKNOWN_FIELD",
    ],
  ])("refuses %j: 422 on %s with %s", async (body, field, code) => {
    const { api } = await owner();
    const response = await api.create(body);
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      errors: [{ field, code, message: expect.any(String) }],
    });
    expect((await (await api.list()).json()) as object).toEqual({ data: [] });
  });

  it("takes a description of 256 characters", async () => {
    const { api } = await owner();
    const description = "é".repeat(256);
    expect(
      (await api.register({ url: URL_A, events: ["*"], description }))
        .description,
    ).toBe(description);
  });
});

describe("listing and reading endpoints", () => {
  it("lists the key's endpoints oldest first, and no other key's", async () => {
    const { api, clock } = await owner();
    const first = await api.register();
    clock.advance(MINUTE);
    const second = await api.register({
      url: "https://other.example/in",
      events: ["document.deleted"],
    });
    const other = await owner();
    await other.api.register();
    const { data } = (await (await api.list()).json()) as {
      data: { id: string }[];
    };
    expect(data.map((endpoint) => endpoint.id)).toEqual([first.id, second.id]);
  });

  it("answers 404 for an id no endpoint has, or that cannot be one", async () => {
    const { api } = await owner();
    for (const id of ["we_000000000000000000000000", "nope"]) {
      const response = await api.get(id);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({
        errors: [{ code: "NOT_FOUND" }],
      });
    }
  });
});

describe("changing an endpoint", () => {
  it("changes only the fields sent, and its updated_at", async () => {
    const { api, clock } = await owner();
    const created = await api.register({
      url: URL_A,
      events: ["document.issued"],
      description: "first",
    });
    clock.advance(MINUTE);
    const response = await api.update(created.id, {
      url: "https://receiver.example/v2",
      events: ["*"],
    });
    expect(response.status).toBe(200);
    const { secret, ...before } = created;
    const expected = {
      ...before,
      url: "https://receiver.example/v2",
      events: ["*"],
      updated_at: new Date(NOW + MINUTE).toISOString(),
    };
    expect(await response.json()).toEqual(expected);
    expect(await (await api.get(created.id)).json()).toEqual(expected);
    const cleared = await api.update(created.id, { description: null });
    expect(await cleared.json()).toMatchObject({ description: null });
  });

  it("disables and enables it; enabling one the service disabled clears why and since when", async () => {
    const { api, clock, credential } = await owner();
    const created = await api.register();
    const disabled = await api.update(created.id, { enabled: false });
    expect(await disabled.json()).toMatchObject({
      enabled: false,
      disabled_reason: null,
    });
    // As the deliveries disable an endpoint failing for 3 days.
    await homeOf(credential.id)
      .prepare(
        "UPDATE webhook_endpoints SET enabled = 0, disabled_reason = 'failing', failing_since = ? WHERE id = ?",
      )
      .bind(NOW - 3 * 24 * 60 * MINUTE, created.id)
      .run();
    expect(await (await api.get(created.id)).json()).toMatchObject({
      enabled: false,
      disabled_reason: "failing",
      failing_since: new Date(NOW - 3 * 24 * 60 * MINUTE).toISOString(),
    });
    clock.advance(MINUTE);
    const enabled = await api.update(created.id, { enabled: true });
    expect(await enabled.json()).toMatchObject({
      enabled: true,
      disabled_reason: null,
      failing_since: null,
    });
  });

  it("keeps the failures of an endpoint still enabled when told enabled: true", async () => {
    const { api, credential } = await owner();
    const created = await api.register();
    await homeOf(credential.id)
      .prepare("UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?")
      .bind(NOW - MINUTE, created.id)
      .run();
    const response = await api.update(created.id, { enabled: true });
    expect(await response.json()).toMatchObject({
      enabled: true,
      failing_since: new Date(NOW - MINUTE).toISOString(),
    });
  });

  it.each([
    [{}, null, "REQUIRED"],
    [{ secret: "whsec_x" }, "secret", "UNKNOWN_FIELD"],
    [{ enabled: "yes" }, "enabled", "INVALID_TYPE"],
    [{ events: null }, "events", "INVALID_TYPE"],
    [{ url: "ftp://receiver.example/" }, "url", "INVALID_FORMAT"],
    [{ url: "https://10.0.0.1/" }, "url", "INVALID_VALUE"],
  ])(
    "refuses %j: 422 on %s with %s, changing nothing",
    async (body, field, code) => {
      const { api } = await owner();
      const created = await api.register();
      const response = await api.update(created.id, body);
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({
        errors: [{ field, code, message: expect.any(String) }],
      });
      const { secret, ...unchanged } = created;
      expect(await (await api.get(created.id)).json()).toEqual(unchanged);
    },
  );
});

describe("deleting an endpoint", () => {
  it("answers 204, then 404; its pending deliveries fail with it", async () => {
    const { api, credential } = await owner();
    const created = await api.register();
    const kept = await api.register();
    const ping = await api.test(created.id);
    expect(ping.status).toBe(202);
    const keptPing = await api.test(kept.id);
    expect(keptPing.status).toBe(202);

    const response = await api.remove(created.id);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect((await api.get(created.id)).status).toBe(404);
    expect((await api.remove(created.id)).status).toBe(404);
    const { data } = (await (await api.list()).json()) as {
      data: { id: string }[];
    };
    expect(data.map((endpoint) => endpoint.id)).toEqual([kept.id]);
    const deliveries = await homeOf(credential.id)
      .prepare(
        "SELECT endpoint_id, status, next_attempt_at FROM webhook_deliveries WHERE credential_id = ? ORDER BY endpoint_id = ? DESC",
      )
      .bind(credential.id, created.id)
      .all();
    expect(deliveries.results).toEqual([
      { endpoint_id: created.id, status: "failed", next_attempt_at: null },
      { endpoint_id: kept.id, status: "pending", next_attempt_at: NOW },
    ]);
  });
});

describe("who may reach an endpoint", () => {
  /** Every operation on one endpoint, as `api` calls it. */
  const everyOperation = (
    api: ReturnType<typeof webhookEndpointsApi>,
    id: string,
  ) => [
    () => api.get(id),
    () => api.update(id, { description: "mine now" }),
    () => api.rotate(id),
    () => api.test(id),
    () => api.remove(id),
  ];

  it("answers 404 to another key on every operation, as for an unknown id, and changes nothing", async () => {
    const { api, credential } = await owner();
    const created = await api.register();
    const before = await endpointRow(credential.id, created.id);
    const stranger = await owner(await neighbourOf(credential.id));
    for (const operation of everyOperation(stranger.api, created.id)) {
      const response = await operation();
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({
        errors: [{ field: null, code: "NOT_FOUND" }],
      });
    }
    expect(await endpointRow(credential.id, created.id)).toEqual(before);
    const events = await homeOf(credential.id)
      .prepare("SELECT count(*) AS n FROM events WHERE endpoint_id = ?")
      .bind(created.id)
      .first<{ n: number }>();
    expect(events?.n).toBe(0);
    expect((await stranger.api.list()).status).toBe(200);
    expect(await (await stranger.api.list()).json()).toEqual({ data: [] });
  });

  it("answers a demo token 403 DEMO_NOT_ALLOWED on every operation", async () => {
    const { api } = await owner();
    const created = await api.register();
    const ip = "203.0.113.31";
    const request = fromIp(callWithClock(fixedClock(NOW)), ip);
    const tokenResponse = await request("/api/v1/demo/tokens", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    const { token } = (await tokenResponse.json()) as { token: string };
    const demo = webhookEndpointsApi(request, token);
    for (const operation of [
      () => demo.create({ url: URL_A, events: ["*"] }),
      () => demo.list(),
      ...everyOperation(demo, created.id),
    ]) {
      const response = await operation();
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({
        errors: [
          {
            field: null,
            code: "DEMO_NOT_ALLOWED",
            message: expect.stringContaining("API key"),
          },
        ],
      });
    }
  });

  it("answers 401 without a key, or with an unknown one", async () => {
    const request = callWithClock(fixedClock(NOW));
    const id = "we_000000000000000000000000";
    for (const headers of [{}, bearer("sk_test_unknown").headers]) {
      for (const [path, method] of [
        ["/api/v1/webhook-endpoints", "GET"],
        ["/api/v1/webhook-endpoints", "POST"],
        [`/api/v1/webhook-endpoints/${id}`, "GET"],
        [`/api/v1/webhook-endpoints/${id}`, "PATCH"],
        [`/api/v1/webhook-endpoints/${id}`, "DELETE"],
        [`/api/v1/webhook-endpoints/${id}/rotate-secret`, "POST"],
        [`/api/v1/webhook-endpoints/${id}/test`, "POST"],
      ] as const) {
        const response = await request(path, { method, headers });
        expect(response.status, `${method} ${path}`).toBe(401);
        expect(await response.json()).toMatchObject({
          errors: [{ code: "UNAUTHENTICATED" }],
        });
      }
    }
  });
});

describe("without WEBHOOK_KEYRING", () => {
  const logged = capturedLog();

  it("answers 500 where a secret is sealed, naming the variable in the log; the rest works", async () => {
    const { WEBHOOK_KEYRING: _unset, ...bindings } = env;
    const request = callWith({
      clock: systemClock,
      bindings: bindings as unknown as Env,
    });
    const { key } = await createCredential();
    const api = webhookEndpointsApi(request, key);
    const response = await api.create({ url: URL_A, events: ["*"] });
    expect(response.status).toBe(500);
    const requestId = response.headers.get("X-Request-Id") as string;
    const line = logged.find((entry) => entry.includes(requestId));
    expect(JSON.parse(line as string)).toMatchObject({
      error: "ConfigError",
      message: expect.stringContaining("WEBHOOK_KEYRING"),
    });
    expect(await (await api.list()).json()).toEqual({ data: [] });
    expect((await request("/api/v1/documents", bearer(key))).status).toBe(200);
  });
});
