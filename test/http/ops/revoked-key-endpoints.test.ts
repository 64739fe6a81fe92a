import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { minimalRequest } from "../../../fixtures/requests";
import { openShards } from "../../../src/db/client";
import { copyRows, pageOfTable } from "../../../src/db/rebalance";
import {
  credentialBucket,
  shardOfBucket,
} from "../../../src/domain/shard-routing";
import type { WebhookEndpoint } from "../../../src/schemas/webhook-endpoint";
import { createCredential } from "../../helpers/credentials";
import { documentsApi, qrPath } from "../../helpers/documents-api";
import { d1StatementsDown } from "../../helpers/faults";
import { opsClient } from "../../helpers/ops";
import {
  FROM,
  keyOnTwoShards,
  twoShards,
  whileMoving,
} from "../../helpers/rebalance";
import { shards } from "../../helpers/shards";
import { homeOf, webhookEndpointsApi } from "../../helpers/webhook-endpoints";
import { insertEndpoint, webhookWorld } from "../../helpers/webhooks";
import { call, callWithClock, fixedClock } from "../../helpers/worker";

// A revoked key's webhook endpoints: revoking disables them and fails their
// pending deliveries, in every home they may be in while shards move; the
// operations API lists and deletes them, the key being closed.

const NOW = Date.UTC(2026, 10, 21, 9);
const HOUR = 60 * 60 * 1000;

const revoke = (credentialId: string, bindings: Env = env) =>
  opsClient(bindings)(`/ops/v1/keys/${credentialId}/revoke`, {
    method: "POST",
  });

const endpointsPath = (credentialId: string) =>
  `/ops/v1/keys/${credentialId}/webhook-endpoints`;

const endpointState = (credentialId: string, endpointId: string) =>
  homeOf(credentialId)
    .prepare(
      "SELECT enabled, disabled_reason FROM webhook_endpoints WHERE id = ?",
    )
    .bind(endpointId)
    .first();

const deliveryStatuses = async (credentialId: string, endpointId: string) =>
  (
    await homeOf(credentialId)
      .prepare(
        "SELECT status FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY created_at, event_id",
      )
      .bind(endpointId)
      .all<{ status: string }>()
  ).results.map((row) => row.status);

describe("revoking a key with webhook endpoints", () => {
  it("disables its endpoints and fails their pending deliveries: a new event of its documents posts nothing", async () => {
    const world = webhookWorld(NOW, (received) =>
      received.url.endsWith("/down")
        ? new Response("no", { status: 500 })
        : new Response("ok"),
    );
    const owner = await createCredential();
    const up = await insertEndpoint(owner.id, {
      url: "https://erp.test/up",
      createdAt: NOW,
    });
    const down = await insertEndpoint(owner.id, {
      url: "https://erp.test/down",
      createdAt: NOW,
    });
    const request = world.request();
    const document = await documentsApi(request, owner.key).issue(
      minimalRequest(),
    );
    await world.consumeDue();
    expect(world.receiver.received).toHaveLength(2);
    expect(await deliveryStatuses(owner.id, down.id)).toEqual(["pending"]);

    expect((await revoke(owner.id)).status).toBe(200);
    expect(await deliveryStatuses(owner.id, down.id)).toEqual(["failed"]);
    expect(await deliveryStatuses(owner.id, up.id)).toEqual(["delivered"]);

    // The paper outlives the key: its scans are events of that key.
    expect((await request(qrPath(document.url))).status).toBe(200);
    // The failing one's retry comes, and finds it failed.
    world.clock.advance(2 * HOUR);
    await world.consumeDue();
    expect(world.receiver.received).toHaveLength(2);
  });

  it("shows them through the operations API as disabled for the revocation; it deletes one, the key's own DELETE being refused", async () => {
    const owner = await createCredential();
    const api = webhookEndpointsApi(call, owner.key);
    const first = await api.register();
    const second = await api.register({
      url: "https://receiver.example/other",
      events: ["document.issued"],
    });
    expect((await revoke(owner.id)).status).toBe(200);
    expect((await api.remove(first.id)).status).toBe(401);

    const ops = opsClient();
    const listed = await ops(endpointsPath(owner.id));
    expect(listed.status).toBe(200);
    const { data } = (await listed.json()) as { data: WebhookEndpoint[] };
    expect(data.map((endpoint) => endpoint.id)).toEqual([first.id, second.id]);
    for (const endpoint of data) {
      expect(endpoint).toMatchObject({
        enabled: false,
        disabled_reason: "revoked",
      });
    }

    const removed = await ops(`${endpointsPath(owner.id)}/${first.id}`, {
      method: "DELETE",
    });
    expect(removed.status).toBe(204);
    const after = (await (await ops(endpointsPath(owner.id))).json()) as {
      data: WebhookEndpoint[];
    };
    expect(after.data.map((endpoint) => endpoint.id)).toEqual([second.id]);
    expect(
      (
        await ops(`${endpointsPath(owner.id)}/${first.id}`, {
          method: "DELETE",
        })
      ).status,
    ).toBe(404);
    // Another credential's endpoint is not reachable through this one.
    const other = await createCredential();
    expect(
      (
        await ops(`${endpointsPath(other.id)}/${second.id}`, {
          method: "DELETE",
        })
      ).status,
    ).toBe(404);
  });

  it("stops the webhooks before the key: a revocation that failed on the key has disabled them for good, a call again finishes it", async () => {
    const owner = await createCredential();
    const api = webhookEndpointsApi(call, owner.key);
    const endpoint = await api.register();
    const failed = await revoke(
      owner.id,
      d1StatementsDown(/^update "credentials"/),
    );
    expect(failed.status).toBe(503);
    const revoked = { enabled: 0, disabled_reason: "revoked" };
    expect(await endpointState(owner.id, endpoint.id)).toEqual(revoked);
    // The key still works until the call again: it cannot start them again.
    expect((await api.update(endpoint.id, { enabled: true })).status).toBe(404);
    expect(await endpointState(owner.id, endpoint.id)).toEqual(revoked);

    expect((await revoke(owner.id)).status).toBe(200);
    expect((await revoke(owner.id)).status).toBe(404);
    expect(await endpointState(owner.id, endpoint.id)).toEqual(revoked);
  });

  it("disables them in both homes while a rebalance moves the key's home", async () => {
    const { organizationId, key } = await keyOnTwoShards(
      `Mudanza ${crypto.randomUUID()}`,
      true,
    );
    const before = callWithClock(fixedClock(Date.now()), twoShards);
    const endpoint = await webhookEndpointsApi(before, key).register();
    const credentialId = (
      (await (await opsClient()("/ops/v1/keys")).json()) as {
        credential_id: string;
        organization_id: string;
        key: string;
      }[]
    ).find(
      (listed) =>
        listed.organization_id === organizationId &&
        listed.key.endsWith(key.slice(-4)),
    )?.credential_id as string;
    // Mid-move: the mover copied the endpoint ahead, and has not yet
    // deleted it from the former home.
    const bucket = credentialBucket({ id: credentialId, environment: "test" });
    const all = openShards(env);
    const former = all[shardOfBucket(bucket, FROM)];
    const current = all[shardOfBucket(bucket, all.length)];
    if (!former || !current || former === current) throw new Error("no move");
    const rows = await pageOfTable(former, "webhook_endpoints", 0, {
      rows: 10_000,
      bytes: Number.MAX_SAFE_INTEGER,
    });
    await copyRows(
      current,
      "webhook_endpoints",
      rows.filter((row) => row.id === endpoint.id),
    );

    expect((await revoke(credentialId, whileMoving())).status).toBe(200);
    for (const index of [
      shardOfBucket(bucket, FROM),
      shardOfBucket(bucket, all.length),
    ]) {
      const row = await (shards[index] as D1Database)
        .prepare(
          "SELECT enabled, disabled_reason FROM webhook_endpoints WHERE id = ?",
        )
        .bind(endpoint.id)
        .first();
      expect(row, `DB_${index}`).toEqual({
        enabled: 0,
        disabled_reason: "revoked",
      });
    }
  });
});
