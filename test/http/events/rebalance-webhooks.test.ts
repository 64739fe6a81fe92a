import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { minimalRequest } from "../../../fixtures/requests";
import { openShards } from "../../../src/db/client";
import type { MovedTable } from "../../../src/db/rebalance";
import { copyRows, pageOfTable } from "../../../src/db/rebalance";
import {
  type RebalanceCursor,
  rebalanceStep,
} from "../../../src/domain/operations/rebalance-shards";
import {
  credentialBucket,
  shardOfBucket,
} from "../../../src/domain/shard-routing";
import { documentsApi } from "../../helpers/documents-api";
import {
  FROM,
  keyOnTwoShards,
  twoShards,
  whileMoving,
} from "../../helpers/rebalance";
import { webhookEndpointsApi } from "../../helpers/webhook-endpoints";
import { webhookWorld } from "../../helpers/webhooks";
import { bearer } from "../../helpers/worker";

// A key whose home shard moves (2 → 4 shards) has its events, endpoints,
// deliveries and attempts in its former home, in its new one, or mid-move in
// both, table by table: every event is still delivered once to each
// endpoint, and every endpoint can be managed, wherever its rows are.

const NOW = Date.UTC(2026, 10, 21, 9);
const HOUR = 60 * 60 * 1000;

/** Runs the mover from the start up to the step that would move `table`. */
async function moveUntil(table: RebalanceCursor["table"]): Promise<void> {
  let cursor: RebalanceCursor | null = null;
  do {
    cursor = (await rebalanceStep(openShards(env), FROM, cursor)).next;
  } while (cursor !== null && cursor.table !== table);
}

/** The key's home among two shards and among four. */
function homes(credentialId: string) {
  const bucket = credentialBucket({ id: credentialId, environment: "test" });
  const all = openShards(env);
  return {
    former: all[shardOfBucket(bucket, FROM)],
    current: all[shardOfBucket(bucket, all.length)],
  };
}

/** The mover's first half for one key's rows of `table`: copied to the new home, not deleted from the former one. */
async function copyAhead(table: MovedTable, credentialId: string) {
  const { former, current } = homes(credentialId);
  if (!former || !current) throw new Error("no shard");
  const rows = (
    await pageOfTable(former, table, 0, {
      rows: 10_000,
      bytes: Number.MAX_SAFE_INTEGER,
    })
  ).filter((row) => row.credential_id === credentialId);
  await copyRows(current, table, rows);
}

/** A key whose home moves, an endpoint it registered before the rebalance, and the world it runs in. */
async function movingKeyWithEndpoint(answer?: () => Response) {
  const world = webhookWorld(NOW, answer);
  const owner = await keyOnTwoShards("Webhooks en mudanza SL", true);
  const endpoint = await webhookEndpointsApi(
    world.request(twoShards),
    owner.key,
  ).register({ url: "https://receiver.example/hooks", events: ["*"] });
  return { world, owner, endpoint };
}

/** The deliveries of the event announcing `uuid`, as the events API shows them. */
async function deliveriesOfDocument(
  world: ReturnType<typeof webhookWorld>,
  key: string,
  uuid: string,
  bindings: Env,
) {
  const list = (await (
    await world.request(bindings)(
      `/api/v1/events?document_uuid=${uuid}`,
      bearer(key),
    )
  ).json()) as { data: { id: string; type: string }[] };
  const issued = list.data.find((event) => event.type === "document.issued");
  if (!issued) throw new Error("no document.issued event");
  const detail = (await (
    await world.request(bindings)(`/api/v1/events/${issued.id}`, bearer(key))
  ).json()) as { deliveries: { endpoint_id: string; status: string }[] };
  return detail.deliveries;
}

/** The event announcing `uuid` was delivered to `endpointId`, and to no other endpoint, as the events API shows it while the home moves. */
async function expectDelivered(
  world: ReturnType<typeof webhookWorld>,
  key: string,
  uuid: string,
  endpointId: string,
) {
  expect(await deliveriesOfDocument(world, key, uuid, whileMoving())).toEqual([
    expect.objectContaining({ endpoint_id: endpointId, status: "delivered" }),
  ]);
}

/** The URLs the receiver was posted an event of document `uuid` at, in order. */
const postedAbout = (world: ReturnType<typeof webhookWorld>, uuid: string) =>
  world.receiver.received
    .filter((received) => received.body.includes(uuid))
    .map((received) => received.url);

describe("webhooks while a rebalance moves the key's home", () => {
  it("delivers an event relayed while its endpoint is still in the former home, once", async () => {
    const { world, owner, endpoint } = await movingKeyWithEndpoint();
    // Everything before the endpoints moved: the events' new home is where
    // the relay writes, the endpoint still in the former one.
    await moveUntil("webhook_endpoints");
    const api = documentsApi(world.request(whileMoving()), owner.key);
    const document = await api.issue(minimalRequest());
    await world.consumeDue(whileMoving());

    expect(postedAbout(world, document.uuid)).toEqual([endpoint.url]);
    await expectDelivered(world, owner.key, document.uuid, endpoint.id);
  });

  it("delivers once when the endpoint is in both homes mid-move", async () => {
    const { world, owner, endpoint } = await movingKeyWithEndpoint();
    await moveUntil("webhook_endpoints");
    await copyAhead("webhook_endpoints", owner.credentialId);
    const api = documentsApi(world.request(whileMoving()), owner.key);
    const document = await api.issue(minimalRequest());
    await world.consumeDue(whileMoving());

    expect(postedAbout(world, document.uuid)).toEqual([endpoint.url]);
  });

  for (const movedBefore of [
    "webhook_endpoints",
    "webhook_deliveries",
  ] as const) {
    it(`retries a pending delivery in the former home once the mover reached ${movedBefore}`, async () => {
      let failing = true;
      const { world, owner, endpoint } = await movingKeyWithEndpoint(() =>
        failing ? new Response("down", { status: 503 }) : new Response("ok"),
      );
      // Issued and attempted before the rebalance: the first attempt fails.
      const api = documentsApi(world.request(twoShards), owner.key);
      const document = await api.issue(minimalRequest());
      await world.consumeDue(twoShards);
      expect(world.receiver.received).toHaveLength(1);

      // The tables before `movedBefore` moved: the event (and, at
      // deliveries, the endpoint) in the new home, the delivery not.
      await moveUntil(movedBefore);
      failing = false;
      world.clock.advance(HOUR);
      await world.consumeDue(whileMoving());

      expect(world.receiver.received).toHaveLength(2);
      expect(world.receiver.received[1]?.id).toBe(
        world.receiver.received[0]?.id,
      );
      await expectDelivered(world, owner.key, document.uuid, endpoint.id);
    });
  }

  it("lists, reads, changes, rotates, pings and deletes an endpoint not moved yet", async () => {
    const { world, owner, endpoint } = await movingKeyWithEndpoint();
    await moveUntil("webhook_endpoints");
    const api = webhookEndpointsApi(world.request(whileMoving()), owner.key);

    const listed = (await (await api.list()).json()) as {
      data: { id: string }[];
    };
    expect(listed.data.map((row) => row.id)).toEqual([endpoint.id]);
    expect((await api.get(endpoint.id)).status).toBe(200);
    const updated = await api.update(endpoint.id, { description: "Moving" });
    expect(updated.status).toBe(200);
    expect(
      ((await updated.json()) as { description: string }).description,
    ).toBe("Moving");
    expect((await api.rotate(endpoint.id)).status).toBe(200);
    expect((await api.test(endpoint.id)).status).toBe(202);
    expect((await api.remove(endpoint.id)).status).toBe(204);
    expect((await api.get(endpoint.id)).status).toBe(404);
    expect(
      ((await (await api.list()).json()) as { data: unknown[] }).data,
    ).toEqual([]);
  });

  it("counts the endpoint limit over both homes", async () => {
    const { world, owner } = await movingKeyWithEndpoint();
    const before = webhookEndpointsApi(world.request(twoShards), owner.key);
    for (let n = 1; n < 16; n++) await before.register();
    await moveUntil("webhook_endpoints");
    const api = webhookEndpointsApi(world.request(whileMoving()), owner.key);

    const refused = await api.create({
      url: "https://receiver.example/hooks",
      events: ["*"],
    });
    expect(refused.status).toBe(409);
    expect(
      ((await (await api.list()).json()) as { data: unknown[] }).data,
    ).toHaveLength(16);
  });
});
