import { afterEach, describe, expect, it, vi } from "vitest";
import { minimalRequest } from "../../fixtures/requests";
import { EVENT_RETENTION_DAYS } from "../../src/domain/events/retention";
import { createCredential } from "../helpers/credentials";
import { documentsApi } from "../helpers/documents-api";
import { rowsOfAllShards } from "../helpers/shards";
import { insertEndpoint, webhookWorld } from "../helpers/webhooks";

const NOW = Date.UTC(2026, 10, 22, 9);
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;

afterEach(() => {
  vi.restoreAllMocks();
});

/** The credential's rows of each event table, in every shard. */
async function eventRowsOf(credentialId: string) {
  const count = async (table: string) =>
    (
      await rowsOfAllShards(
        `SELECT 1 FROM ${table} WHERE credential_id = ?`,
        credentialId,
      )
    ).length;
  return {
    outbox: await count("event_outbox"),
    events: await count("events"),
    deliveries: await count("webhook_deliveries"),
    attempts: await count("webhook_attempts"),
  };
}

describe("the cron's part in the events", () => {
  it("relays an event whose announcement was lost, once it has waited a minute, and delivers it", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "log").mockImplementation(() => {});
    const world = webhookWorld(NOW);
    const owner = await createCredential();
    await insertEndpoint(owner.id, { createdAt: NOW });
    world.queue.failSends("before");
    const document = await documentsApi(world.request(), owner.key).issue(
      minimalRequest(),
    );
    world.queue.failSends(null);
    await world.consumeDue();
    expect(world.receiver.received).toEqual([]);

    world.clock.set(NOW + 30 * SECOND);
    await world.cron();
    await world.consumeDue();
    expect(world.receiver.received).toEqual([]);

    world.clock.set(NOW + 2 * MINUTE);
    await world.cron();
    await world.consumeDue();
    expect(world.receiver.received).toHaveLength(1);
    expect(JSON.parse(world.receiver.received[0]?.body ?? "")).toMatchObject({
      type: "document.issued",
      data: { uuid: document.uuid },
    });
    // Relayed and marked: the next run finds nothing more to do.
    world.clock.advance(5 * MINUTE);
    await world.cron();
    await world.consumeDue();
    expect(world.receiver.received).toHaveLength(1);
  });

  it("sends again the message of a delivery that was lost, and it is delivered with the same webhook-id", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "log").mockImplementation(() => {});
    const world = webhookWorld(NOW, (_, index) =>
      index === 0 ? new Response("busy", { status: 503 }) : new Response("ok"),
    );
    const owner = await createCredential();
    const endpoint = await insertEndpoint(owner.id, { createdAt: NOW });
    await documentsApi(world.request(), owner.key).issue(minimalRequest());
    // The first attempt fails, and its retry's message is never sent.
    const [announcement] = world.queue.takeDue();
    world.queue.waiting.push(announcement as (typeof world.queue.waiting)[0]);
    world.queue.failSends("before");
    await world.consumeDue();
    world.queue.failSends(null);
    expect(world.receiver.received).toHaveLength(1);

    // The consumer retried the announcement, which finds its event relayed.
    world.clock.set(NOW + MINUTE);
    await world.consumeDue();
    await world.cron();
    await world.consumeDue();
    expect(world.receiver.received).toHaveLength(1);

    world.clock.set(NOW + 2 * MINUTE);
    await world.cron();
    await world.consumeDue();
    const received = world.receiver.received;
    expect(received).toHaveLength(2);
    expect(received[1]?.id).toBe(received[0]?.id);
    expect(
      await rowsOfAllShards(
        "SELECT status, attempts FROM webhook_deliveries WHERE endpoint_id = ?",
        endpoint.id,
      ),
    ).toEqual([{ status: "delivered", attempts: 2 }]);
  });

  it(`purges events, outbox rows, deliveries and attempts after ${EVENT_RETENTION_DAYS} days`, async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const world = webhookWorld(NOW);
    const owner = await createCredential();
    await insertEndpoint(owner.id, { createdAt: NOW });
    const api = documentsApi(world.request(), owner.key);
    await api.issue(minimalRequest());
    await world.consumeDue();
    world.clock.set(NOW + DAY);
    await api.issue({ ...minimalRequest(), reference: null });
    await world.consumeDue();
    const both = { outbox: 2, events: 2, deliveries: 2, attempts: 2 };
    expect(await eventRowsOf(owner.id)).toEqual(both);

    world.clock.set(NOW + EVENT_RETENTION_DAYS * DAY - MINUTE);
    await world.cron();
    expect(await eventRowsOf(owner.id)).toEqual(both);

    world.clock.set(NOW + EVENT_RETENTION_DAYS * DAY + MINUTE);
    await world.cron();
    expect(await eventRowsOf(owner.id)).toEqual({
      outbox: 1,
      events: 1,
      deliveries: 1,
      attempts: 1,
    });
  });
});
