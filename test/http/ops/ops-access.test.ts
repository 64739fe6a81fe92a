import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../../src/clock";
import { createCredential } from "../../helpers/credentials";
import { d1Down } from "../../helpers/faults";
import { capturedLog } from "../../helpers/log";
import { opsClient, supportSecret } from "../../helpers/ops";
import { shards } from "../../helpers/shards";
import { bearer, call, callWith, fromIp } from "../../helpers/worker";

// Who may reach the operations API (docs/operations.md): the support secret
// of any version of SUPPORT_KEYRING, from an allowed IP; nothing else. Every
// call let in is in its audit trail; a refusal is a log line, never a write.

const keyring = (versions: Record<string, string>, current: string) =>
  JSON.stringify({
    current,
    keys: Object.fromEntries(
      Object.entries(versions).map(([version, seed]) => [
        version,
        btoa(seed.padEnd(32, "0")),
      ]),
    ),
  });

const errorCode = async (response: Response) =>
  ((await response.json()) as { errors: { code: string }[] }).errors[0]?.code;

interface OpsCallRow {
  request_id: string;
  operation: string;
  client_ip: string;
  key_version: string | null;
  status: number | null;
}

const opsCallOf = async (requestId: string | null) =>
  shards[0]
    ?.prepare(
      "SELECT request_id, operation, client_ip, key_version, status FROM ops_calls WHERE request_id = ?",
    )
    .bind(requestId)
    .first<OpsCallRow>();

/** The log line of the refused call that answered `response`. */
const refusalLogged = (logged: string[], response: Response) =>
  logged
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find(
      (line) =>
        line.event === "ops_call_refused" &&
        line.request_id === response.headers.get("X-Request-Id"),
    );

describe("the operations API's secret", () => {
  const ops = opsClient();
  const logged = capturedLog();

  it("lets the support secret in, and records the call with its answer", async () => {
    const response = await ops("/ops/v1/keys", { ip: "198.51.100.4" });
    expect(response.status).toBe(200);
    expect(await opsCallOf(response.headers.get("X-Request-Id"))).toEqual({
      request_id: response.headers.get("X-Request-Id"),
      operation: "GET /ops/v1/keys",
      client_ip: "198.51.100.4",
      key_version: "v1",
      status: 200,
    });
  });

  it.each([
    ["no secret", null],
    ["a wrong secret", btoa("not-the-support-key".padEnd(32, "0"))],
    [
      "the secret with a character changed",
      `${supportSecret().startsWith("A") ? "B" : "A"}${supportSecret().slice(1)}`,
    ],
    ["the PDF keyring's key", supportSecret(env.PDF_KEYRING)],
  ])(
    "answers 401 OPS_UNAUTHENTICATED to %s, and logs the refusal without writing it",
    async (_, secret) => {
      const response = await ops("/ops/v1/keys", {
        secret,
        ip: "198.51.100.5",
      });
      expect(response.status).toBe(401);
      expect(response.headers.get("WWW-Authenticate")).toBe("Bearer");
      expect(await errorCode(response)).toBe("OPS_UNAUTHENTICATED");
      expect(await opsCallOf(response.headers.get("X-Request-Id"))).toBeNull();
      expect(refusalLogged(logged, response)).toEqual({
        event: "ops_call_refused",
        request_id: response.headers.get("X-Request-Id"),
        operation: "GET /ops/v1/keys",
        client_ip: "198.51.100.5",
        status: 401,
      });
    },
  );

  it("refuses a wrong secret while the database is down: a refusal writes nothing", async () => {
    const down = opsClient(d1Down());
    const refused = await down("/ops/v1/keys", { secret: "guess" });
    expect(refused.status).toBe(401);
    expect(await errorCode(refused)).toBe("OPS_UNAUTHENTICATED");
    const listed = opsClient({ ...d1Down(), OPS_ALLOWED_IPS: "203.0.113.7" });
    expect((await listed("/ops/v1/keys", { ip: "203.0.113.9" })).status).toBe(
      403,
    );
    // A call let in is recorded before it runs: no record, no call.
    expect((await down("/ops/v1/keys")).status).toBe(503);
  });

  it("refuses a customer key and a demo token with 401", async () => {
    const { key } = await createCredential({ environment: "live" });
    expect((await ops("/ops/v1/keys", { secret: key })).status).toBe(401);
    const tokenResponse = await fromIp(call, "203.0.113.78")(
      "/api/v1/demo/tokens",
      {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{}",
      },
    );
    const { token } = (await tokenResponse.json()) as { token: string };
    expect(token).toMatch(/^sk_demo_/);
    const refused = await ops("/ops/v1/keys", { secret: token });
    expect(refused.status).toBe(401);
    expect(await errorCode(refused)).toBe("OPS_UNAUTHENTICATED");
  });

  it("is no API key: the support secret on /api/v1 answers 401", async () => {
    const response = await call("/api/v1/documents", bearer(supportSecret()));
    expect(response.status).toBe(401);
    expect(await errorCode(response)).toBe("UNAUTHENTICATED");
  });

  it("accepts every version of a rotated keyring, and no removed one", async () => {
    const both = keyring({ v1: "old-support", v2: "new-support" }, "v2");
    const rotated = opsClient({ ...env, SUPPORT_KEYRING: both } as Env);
    const secretOf = (version: string) => supportSecret(both, version);
    const old = await rotated("/ops/v1/keys", { secret: secretOf("v1") });
    expect(old.status).toBe(200);
    expect(
      (await opsCallOf(old.headers.get("X-Request-Id")))?.key_version,
    ).toBe("v1");
    expect(
      (await rotated("/ops/v1/keys", { secret: secretOf("v2") })).status,
    ).toBe(200);

    const retired = opsClient({
      ...env,
      SUPPORT_KEYRING: keyring({ v2: "new-support" }, "v2"),
    } as Env);
    expect(
      (await retired("/ops/v1/keys", { secret: secretOf("v1") })).status,
    ).toBe(401);
    expect(
      (await retired("/ops/v1/keys", { secret: secretOf("v2") })).status,
    ).toBe(200);
  });
});

describe("the operations API's IP allow-list", () => {
  const listed = opsClient({
    ...env,
    OPS_ALLOWED_IPS: "203.0.113.7, 2001:db8::1",
  });
  const logged = capturedLog();

  it("answers 403 OPS_IP_NOT_ALLOWED from another IP, even with the secret, and logs it without writing it", async () => {
    const response = await listed("/ops/v1/keys", { ip: "203.0.113.9" });
    expect(response.status).toBe(403);
    expect(await errorCode(response)).toBe("OPS_IP_NOT_ALLOWED");
    expect(await opsCallOf(response.headers.get("X-Request-Id"))).toBeNull();
    expect(refusalLogged(logged, response)).toMatchObject({
      client_ip: "203.0.113.9",
      status: 403,
    });
    expect((await listed("/ops/v1/keys")).status).toBe(403);
  });

  it("answers the listed IPs", async () => {
    expect((await listed("/ops/v1/keys", { ip: "203.0.113.7" })).status).toBe(
      200,
    );
    expect((await listed("/ops/v1/keys", { ip: "2001:db8::1" })).status).toBe(
      200,
    );
  });
});

describe("without SUPPORT_KEYRING", () => {
  const { SUPPORT_KEYRING: _, ...withoutSecret } = env;
  const unset = opsClient(withoutSecret as unknown as Env);

  it("has no operations API (404) and still serves the customers' API", async () => {
    const response = await unset("/ops/v1/keys");
    expect(response.status).toBe(404);
    expect(await errorCode(response)).toBe("NOT_FOUND");
    expect((await unset("/ops/v1/openapi.json")).status).toBe(404);
    const { key } = await createCredential();
    const customers = callWith({
      clock: systemClock,
      bindings: withoutSecret as unknown as Env,
    });
    expect((await customers("/api/v1/documents", bearer(key))).status).toBe(
      200,
    );
  });
});

describe("the operations API's audit trail", () => {
  const ops = opsClient();

  it("shows every call let in, newest first, without a secret, and no refusal", async () => {
    const earlier = await ops("/ops/v1/keys");
    const refused = await ops("/ops/v1/keys", { secret: "guess" });
    const later = await ops("/ops/v1/keys");
    const response = await ops("/ops/v1/calls");
    expect(response.status).toBe(200);
    const calls = (await response.json()) as (OpsCallRow & {
      started_at: string;
    })[];
    const ids = calls.map((row) => row.request_id);
    const [earlierAt, laterAt] = [earlier, later].map((answer) =>
      ids.indexOf(answer.headers.get("X-Request-Id") ?? ""),
    );
    expect(laterAt).toBeGreaterThanOrEqual(0);
    expect(laterAt).toBeLessThan(earlierAt ?? -1);
    expect(
      calls.find((row) => row.request_id === later.headers.get("X-Request-Id")),
    ).toMatchObject({ status: 200, key_version: "v1" });
    expect(ids).not.toContain(refused.headers.get("X-Request-Id"));
    expect(JSON.stringify(calls)).not.toContain(supportSecret());
  });
});

describe("secrets and the log", () => {
  const logged = capturedLog();

  it("never logs the support secret, a presented guess or an issued key", async () => {
    const ops = opsClient();
    const created = await ops("/ops/v1/keys", {
      method: "POST",
      body: JSON.stringify({ organization: "Logged SL", environment: "test" }),
    });
    const { key } = (await created.json()) as { key: string };
    const wrongSecret = `${supportSecret().slice(0, 20)}guessguessguess`;
    const statuses = [
      created.status,
      (await ops("/ops/v1/keys")).status,
      (await ops("/ops/v1/keys", { secret: wrongSecret })).status,
      (await ops("/ops/v1/keys/cred_nothere/revoke", { method: "POST" }))
        .status,
      (
        await opsClient({ ...env, OPS_ALLOWED_IPS: "203.0.113.7" })(
          "/ops/v1/keys",
        )
      ).status,
    ];
    expect(statuses).toEqual([201, 200, 401, 404, 403]);
    expect(logged.length).toBeGreaterThanOrEqual(statuses.length);
    for (const line of logged) {
      expect(line).not.toContain(supportSecret());
      expect(line).not.toContain(wrongSecret);
      expect(line).not.toContain(key.slice(8));
    }
  });
});
