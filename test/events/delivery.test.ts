import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fullRequest, minimalRequest } from "../../fixtures/requests";
import type { WebhookEndpointRow } from "../../src/db/schema";
import { eventsHome } from "../../src/domain/events/home";
import { eventSchema } from "../../src/schemas/event";
import { CallLedger, countingBindings } from "../helpers/counting-bindings";
import { createCredential } from "../helpers/credentials";
import {
  type DocumentResultBody,
  deletion,
  documentsApi,
  qrPath,
} from "../helpers/documents-api";
import { seedDelivery, seedEvent } from "../helpers/event-rows";
import { shards } from "../helpers/shards";
import { webhookEndpointsApi } from "../helpers/webhook-endpoints";
import {
  insertEndpoint,
  type QueuedMessage,
  type Received,
  signedBy,
  testSigningSecret,
  webhookWorld,
} from "../helpers/webhooks";
import { jsonRequest } from "../helpers/worker";

const NOW = Date.UTC(2026, 10, 21, 9);
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Rows of `sql` in the home shard of `credentialId`. */
const homeRows = async <T>(
  credentialId: string,
  sql: string,
  ...values: unknown[]
): Promise<T[]> =>
  (
    await eventsHome(credentialId)(shards)
      .prepare(sql)
      .bind(...values)
      .all<T>()
  ).results;

interface DeliveryRow {
  event_id: string;
  status: string;
  attempts: number;
  next_attempt_at: number | null;
}

const deliveriesTo = (credentialId: string, endpointId: string) =>
  homeRows<DeliveryRow>(
    credentialId,
    "SELECT event_id, status, attempts, next_attempt_at FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY created_at, event_id",
    endpointId,
  );

const attemptsTo = (credentialId: string, endpointId: string) =>
  homeRows<{ status_code: number | null; error: string | null }>(
    credentialId,
    "SELECT status_code, error FROM webhook_attempts WHERE endpoint_id = ? ORDER BY id",
    endpointId,
  );

interface EndpointState {
  enabled: number;
  disabled_reason: string | null;
  failing_since: number | null;
}

const endpointState = async (credentialId: string, endpointId: string) =>
  (
    await homeRows<EndpointState>(
      credentialId,
      "SELECT enabled, disabled_reason, failing_since FROM webhook_endpoints WHERE id = ?",
      endpointId,
    )
  )[0];

/** A delivery's event, as its receiver reads it. */
const eventOf = (received: Received) =>
  eventSchema.parse(JSON.parse(received.body));

type Signed = Parameters<typeof signedBy>[1];

const signatureOf = (received: Received): Signed => ({
  id: received.id,
  timestamp: received.headers.get("webhook-timestamp") ?? "",
  body: received.body,
  signature: received.headers.get("webhook-signature") ?? "",
});

describe("webhook deliveries", () => {
  it("delivers each fact's event once, signed, to the endpoints that want its type", async () => {
    const world = webhookWorld(NOW);
    const owner = await createCredential();
    const all = await insertEndpoint(owner.id, {
      url: "https://erp.test/all",
      createdAt: NOW,
    });
    const deletions = await insertEndpoint(owner.id, {
      url: "https://erp.test/deletions",
      eventTypes: ["document.deleted"],
      createdAt: NOW,
    });
    const request = world.request();
    const api = documentsApi(request, owner.key);
    const document = await api.issue(fullRequest());
    expect((await api.create(fullRequest())).status).toBe(200);
    const correction = (await (
      await api.rectify(document.uuid, {
        ...fullRequest(),
        reference: "PED-2026-0001-R1",
      })
    ).json()) as DocumentResultBody;
    expect((await request(qrPath(correction.url))).status).toBe(200);
    // A later access is sent a minute after the last one at the earliest.
    world.clock.advance(MINUTE);
    expect((await request(qrPath(correction.url))).status).toBe(200);
    const other = await api.issue({ ...minimalRequest(), reference: null });
    expect((await api.remove(other.uuid, deletion())).status).toBe(204);
    await world.consumeDue();

    const toAll = world.receiver.received.filter(
      (received) => received.url === "https://erp.test/all",
    );
    const events = toAll.map(eventOf);
    expect(
      events
        .map((event) => [
          event.type,
          "uuid" in event.data ? event.data.uuid : null,
          "first" in event.data ? event.data.first : null,
        ])
        .sort(),
    ).toEqual(
      [
        ["document.issued", document.uuid, null],
        ["document.issued", correction.uuid, null],
        ["document.rectified", document.uuid, null],
        ["document.accessed", correction.uuid, true],
        ["document.accessed", correction.uuid, false],
        ["document.issued", other.uuid, null],
        ["document.deleted", other.uuid, null],
      ].sort(),
    );
    // The home shard's events are the ones delivered, once each.
    const stored = await homeRows<{ id: string }>(
      owner.id,
      "SELECT id FROM events WHERE credential_id = ?",
      owner.id,
    );
    expect(toAll.map((received) => received.id).sort()).toEqual(
      stored.map((row) => row.id).sort(),
    );
    for (const received of toAll) {
      expect(eventOf(received).id).toBe(received.id);
      expect(received.headers.get("content-type")).toBe("application/json");
      expect(received.headers.get("user-agent")).toBe("DeCA-Webhooks/1");
      expect(received.headers.get("webhook-timestamp")).toBe(
        String(Math.floor(world.clock.now() / 1000)),
      );
      expect(await signedBy(all.secret, signatureOf(received))).toBe(true);
      expect(await signedBy(deletions.secret, signatureOf(received))).toBe(
        false,
      );
      // Thin: neither the QR link nor its secret, nor the document's data.
      expect(received.body).not.toContain(new URL(correction.url).search);
      expect(received.body).not.toContain("/d/");
      expect(received.body).not.toContain(owner.key);
      expect(received.body).not.toContain("whsec_");
    }

    const toDeletions = world.receiver.received.filter(
      (received) => received.url === "https://erp.test/deletions",
    );
    expect(toDeletions.map((received) => eventOf(received).type)).toEqual([
      "document.deleted",
    ]);
    expect(
      await signedBy(deletions.secret, signatureOf(toDeletions[0] as Received)),
    ).toBe(true);
    expect(
      (await deliveriesTo(owner.id, all.id)).map((row) => row.status),
    ).toEqual(Array(7).fill("delivered"));
    expect(await attemptsTo(owner.id, deletions.id)).toEqual([
      { status_code: 200, error: null },
    ]);
  });

  it("sends a fact relayed late only to the endpoints that existed at the fact; a redelivery reaches a later one", async () => {
    const world = webhookWorld(NOW);
    const owner = await createCredential();
    const request = world.request();
    const endpoints = webhookEndpointsApi(request, owner.key);
    const before = await endpoints.register({
      url: "https://erp.test/before",
      events: ["*"],
    });
    world.clock.advance(SECOND);
    const document = await documentsApi(request, owner.key).issue(
      minimalRequest(),
    );
    // Its event still waits in the outbox when the next endpoint is created.
    world.clock.advance(SECOND);
    const after = await endpoints.register({
      url: "https://erp.test/after",
      events: ["*"],
    });
    await world.consumeDue();
    const urls = () => world.receiver.received.map(({ url }) => url);
    expect(urls()).toEqual(["https://erp.test/before"]);
    expect(eventOf(world.receiver.received[0] as Received).data).toMatchObject({
      uuid: document.uuid,
    });
    expect(await deliveriesTo(owner.id, after.id)).toEqual([]);
    // The fact lies between the two endpoints' creations.
    const { created_at: factAt } = eventOf(
      world.receiver.received[0] as Received,
    );
    expect([before.created_at < factAt, factAt < after.created_at]).toEqual([
      true,
      true,
    ]);

    const eventId = (world.receiver.received[0] as Received).id;
    const redelivered = await request(
      `/api/v1/events/${eventId}/redeliver`,
      jsonRequest("POST", owner.key, { endpoint_id: after.id }),
    );
    expect(redelivered.status).toBe(202);
    await world.consumeDue();
    expect(urls()).toEqual([
      "https://erp.test/before",
      "https://erp.test/after",
    ]);
  });

  it("relays a batch's announcements together: one read a document shard, one batch and one record a home shard", async () => {
    const world = webhookWorld(NOW);
    const owner = await createCredential();
    await insertEndpoint(owner.id, { createdAt: NOW });
    const api = documentsApi(world.request(), owner.key);
    for (let i = 0; i < 6; i++) {
      await api.issue({ ...minimalRequest(), reference: null });
    }
    const ledger = new CallLedger();
    const { calls } = await ledger.measureRequest(
      () => world.consumeDue(countingBindings(env, ledger)),
      async () => {},
    );
    expect(world.receiver.received).toHaveLength(6);
    const labels = calls.map((call) => call.label);
    const reads = labels.filter((label) => label === "D1 select event_outbox");
    const marks = labels.filter((label) => label === "D1 update event_outbox");
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.length).toBeLessThanOrEqual(shards.length);
    expect(marks).toHaveLength(reads.length);
    // The relay's batch (the endpoints, each event's deliveries and the
    // event) and the attempts' record, in the credential's home shard.
    expect(labels.filter((label) => label.startsWith("D1 batch"))).toEqual([
      "D1 batch(13)",
      "D1 batch(18)",
    ]);
    expect(labels).toHaveLength(2 * reads.length + 2);
  });

  it("tries a failing delivery again after the backoff, with the same webhook-id, until it is delivered", async () => {
    const world = webhookWorld(NOW, (_, index) =>
      index < 2 ? new Response("down", { status: 500 }) : new Response("ok"),
    );
    const owner = await createCredential();
    const endpoint = await insertEndpoint(owner.id, { createdAt: NOW });
    await documentsApi(world.request(), owner.key).issue(minimalRequest());
    await world.consumeDue();
    expect(world.receiver.received).toHaveLength(1);
    const [first] = await deliveriesTo(owner.id, endpoint.id);
    expect(first).toMatchObject({ status: "pending", attempts: 1 });
    // 5 s, within ±20%; its message comes back then (Queues' delay is in
    // whole seconds).
    const firstRetryAt = first?.next_attempt_at ?? 0;
    expect(firstRetryAt - NOW).toBeGreaterThanOrEqual(4 * SECOND);
    expect(firstRetryAt - NOW).toBeLessThanOrEqual(6 * SECOND);
    const comesBack = () => world.queue.waiting[0]?.visibleAt ?? 0;
    expect(comesBack() - firstRetryAt).toBeGreaterThanOrEqual(0);
    expect(comesBack() - firstRetryAt).toBeLessThan(SECOND);
    expect(await endpointState(owner.id, endpoint.id)).toMatchObject({
      enabled: 1,
      failing_since: NOW,
    });
    // Nothing more until the backoff is over.
    world.clock.set(firstRetryAt - 2 * SECOND);
    await world.consumeDue();
    expect(world.receiver.received).toHaveLength(1);

    const secondAttemptAt = comesBack();
    world.clock.set(secondAttemptAt);
    await world.consumeDue();
    expect(world.receiver.received).toHaveLength(2);
    const [second] = await deliveriesTo(owner.id, endpoint.id);
    expect(second).toMatchObject({ status: "pending", attempts: 2 });
    // 10 s, within ±20%.
    const secondRetry = (second?.next_attempt_at ?? 0) - secondAttemptAt;
    expect(secondRetry).toBeGreaterThanOrEqual(8 * SECOND);
    expect(secondRetry).toBeLessThanOrEqual(12 * SECOND);

    const thirdAttemptAt = comesBack();
    world.clock.set(thirdAttemptAt);
    await world.consumeDue();
    const received = world.receiver.received;
    expect(received).toHaveLength(3);
    expect(new Set(received.map((delivery) => delivery.id)).size).toBe(1);
    for (const delivery of received) {
      expect(await signedBy(endpoint.secret, signatureOf(delivery))).toBe(true);
    }
    expect(
      received.map((delivery) => delivery.headers.get("webhook-timestamp")),
    ).toEqual(
      [NOW, secondAttemptAt, thirdAttemptAt].map((at) =>
        String(Math.floor(at / 1000)),
      ),
    );
    expect(await deliveriesTo(owner.id, endpoint.id)).toMatchObject([
      { status: "delivered", attempts: 3, next_attempt_at: null },
    ]);
    expect(await attemptsTo(owner.id, endpoint.id)).toEqual([
      { status_code: 500, error: null },
      { status_code: 500, error: null },
      { status_code: 200, error: null },
    ]);
    expect(await endpointState(owner.id, endpoint.id)).toMatchObject({
      enabled: 1,
      failing_since: null,
    });
    expect(world.queue.waiting).toEqual([]);
  });

  it("takes a redirect, a timeout and no answer as failures of their kind", async () => {
    const answers = [
      () =>
        new Response(null, {
          status: 301,
          headers: { Location: "https://elsewhere.test/" },
        }),
      () => {
        throw new DOMException("The operation timed out.", "TimeoutError");
      },
      () => {
        throw new TypeError("Network connection lost.");
      },
    ];
    const world = webhookWorld(NOW, (_, index) =>
      (answers[index] as () => Response)(),
    );
    const owner = await createCredential();
    const endpoint = await insertEndpoint(owner.id, { createdAt: NOW });
    await documentsApi(world.request(), owner.key).issue(minimalRequest());
    for (let attempt = 0; attempt < 3; attempt++) {
      await world.consumeDue();
      world.clock.advance(HOUR);
    }
    expect(await attemptsTo(owner.id, endpoint.id)).toEqual([
      { status_code: 301, error: "redirect" },
      { status_code: null, error: "timeout" },
      { status_code: null, error: "connection" },
    ]);
  });

  it("fails a delivery whose first attempt is 3 days old when an attempt fails", async () => {
    let refused = "";
    const world = webhookWorld(NOW, (received) =>
      received.body.includes(refused)
        ? new Response("no", { status: 503 })
        : new Response("ok"),
    );
    const owner = await createCredential();
    const endpoint = await insertEndpoint(owner.id, { createdAt: NOW });
    const api = documentsApi(world.request(), owner.key);
    refused = (await api.issue(minimalRequest())).uuid;
    await world.consumeDue();
    // Another event delivered meanwhile: the endpoint is not failing every
    // attempt, so only the delivery gives up.
    world.clock.set(NOW + 2 * DAY);
    await api.issue({ ...minimalRequest(), reference: null });
    await world.consumeDue();
    world.clock.set(NOW + 3 * DAY - MINUTE);
    await world.consumeDue();
    expect(await deliveriesTo(owner.id, endpoint.id)).toMatchObject([
      { status: "pending" },
      { status: "delivered" },
    ]);

    world.clock.set(NOW + 3 * DAY);
    await world.consumeDue();
    expect(await deliveriesTo(owner.id, endpoint.id)).toMatchObject([
      { status: "failed", next_attempt_at: null },
      { status: "delivered" },
    ]);
    expect(world.queue.waiting).toEqual([]);
    expect(await endpointState(owner.id, endpoint.id)).toMatchObject({
      enabled: 1,
      disabled_reason: null,
    });
  });

  it("disables an endpoint that failed every attempt for 3 days, and fails its pending deliveries", async () => {
    const world = webhookWorld(NOW, () => new Response("no", { status: 500 }));
    const owner = await createCredential();
    const endpoint = await insertEndpoint(owner.id, { createdAt: NOW });
    const api = documentsApi(world.request(), owner.key);
    await api.issue(minimalRequest());
    await world.consumeDue();
    world.clock.set(NOW + DAY);
    await api.issue({ ...minimalRequest(), reference: null });
    await world.consumeDue();
    world.clock.set(NOW + 3 * DAY - MINUTE);
    await world.consumeDue();
    expect(await endpointState(owner.id, endpoint.id)).toEqual({
      enabled: 1,
      disabled_reason: null,
      failing_since: NOW,
    });

    // One delivery's attempt at 3 days disables the endpoint and fails the
    // other delivery, whose message then posts nothing.
    world.clock.set(NOW + 3 * DAY);
    const [one, ...others] = world.queue.takeDue();
    expect(others).toHaveLength(1);
    world.queue.waiting.push(one as QueuedMessage);
    const posted = world.receiver.received.length;
    await world.consumeDue();
    expect(world.receiver.received).toHaveLength(posted + 1);
    expect(await endpointState(owner.id, endpoint.id)).toEqual({
      enabled: 0,
      disabled_reason: "failing",
      failing_since: NOW,
    });
    expect(
      (await deliveriesTo(owner.id, endpoint.id)).map((row) => row.status),
    ).toEqual(["failed", "failed"]);
    world.queue.waiting.push(...others);
    world.clock.advance(HOUR);
    await world.consumeDue();
    expect(world.receiver.received).toHaveLength(posted + 1);
    // A disabled endpoint gets no new deliveries.
    const sent = world.receiver.received.length;
    await api.issue({ ...minimalRequest(), reference: null });
    await world.consumeDue();
    expect(world.receiver.received).toHaveLength(sent);
    expect(await deliveriesTo(owner.id, endpoint.id)).toHaveLength(2);
  });
});

describe("an attempt's outcome", () => {
  it("tries a ping once: a failing endpoint gets no retries", async () => {
    const world = webhookWorld(NOW, () => new Response("no", { status: 500 }));
    const owner = await createCredential();
    const url = "https://ping-once.test/webhooks";
    const endpoint = await insertEndpoint(owner.id, { createdAt: NOW, url });
    const api = webhookEndpointsApi(world.request(), owner.key);
    expect((await api.test(endpoint.id)).status).toBe(202);
    await world.consumeDue();
    expect(world.receiver.received).toHaveLength(1);
    expect(await deliveriesTo(owner.id, endpoint.id)).toMatchObject([
      { status: "failed", attempts: 1, next_attempt_at: null },
    ]);
    expect(world.queue.waiting).toEqual([]);
    world.clock.advance(HOUR);
    // The cron's sweep redelivers whatever is due in the shared shards,
    // other files' deliveries too: count this endpoint's.
    await world.cron();
    await world.consumeDue();
    expect(
      world.receiver.received.filter((received) => received.url === url),
    ).toHaveLength(1);
  });

  it("starts a redelivery's retries afresh: the backoff from 5 s and 3 days from the redelivery", async () => {
    const world = webhookWorld(NOW, () => new Response("no", { status: 500 }));
    const owner = await createCredential();
    const endpoint = await insertEndpoint(owner.id, { createdAt: NOW - DAY });
    const to = { id: endpoint.id } as WebhookEndpointRow;
    // Given up after 3 days of retries; and 20 failed attempts a day old.
    const old = await seedEvent(owner, { createdAt: NOW - 4 * DAY });
    await seedDelivery(owner, old, to, {
      status: "failed",
      attempts: 40,
      nextAttemptAt: null,
    });
    const recent = await seedEvent(owner, { createdAt: NOW - DAY });
    await seedDelivery(owner, recent, to, {
      status: "pending",
      attempts: 20,
      nextAttemptAt: NOW + HOUR,
    });
    const request = world.request();
    for (const { id } of [old, recent]) {
      const response = await request(`/api/v1/events/${id}/redeliver`, {
        method: "POST",
        headers: { authorization: `Bearer ${owner.key}` },
      });
      expect(response.status).toBe(202);
    }
    await world.consumeDue();
    expect(world.receiver.received).toHaveLength(2);
    const retries = await deliveriesTo(owner.id, endpoint.id);
    for (const retry of retries) {
      expect(retry).toMatchObject({ status: "pending", attempts: 1 });
      expect((retry.next_attempt_at ?? 0) - NOW).toBeLessThanOrEqual(
        6 * SECOND,
      );
    }
    // Retried until 3 days after the redelivery, then failed.
    world.clock.set(NOW + 3 * DAY - MINUTE);
    await world.cron();
    await world.consumeDue();
    expect(
      (await deliveriesTo(owner.id, endpoint.id)).map((row) => row.status),
    ).toEqual(["pending", "pending"]);
    world.clock.set(NOW + 3 * DAY);
    await world.cron();
    await world.consumeDue();
    expect(
      (await deliveriesTo(owner.id, endpoint.id)).map((row) => row.status),
    ).toEqual(["failed", "failed"]);
  });

  it("counts the backoff from the attempt's end: a timed-out attempt's retry is due after it ended", async () => {
    const world = webhookWorld(NOW, () => {
      world.clock.advance(10 * SECOND);
      throw new DOMException("The operation timed out.", "TimeoutError");
    });
    const owner = await createCredential();
    const endpoint = await insertEndpoint(owner.id, { createdAt: NOW });
    await documentsApi(world.request(), owner.key).issue(minimalRequest());
    await world.consumeDue();
    const ended = NOW + 10 * SECOND;
    const [delivery] = await deliveriesTo(owner.id, endpoint.id);
    const retryAfter = (delivery?.next_attempt_at ?? 0) - ended;
    // The first retry's 5 s, within ±20%, after the attempt ended.
    expect(retryAfter).toBeGreaterThanOrEqual(4 * SECOND);
    expect(retryAfter).toBeLessThanOrEqual(6 * SECOND);
    const comesBack = world.queue.waiting[0]?.visibleAt ?? 0;
    expect(comesBack - (delivery?.next_attempt_at ?? 0)).toBeGreaterThanOrEqual(
      0,
    );
    expect(comesBack - (delivery?.next_attempt_at ?? 0)).toBeLessThan(SECOND);
  });

  it("records a delivery whose secret cannot be opened as a failed attempt (signing), retried with the backoff, failed after 3 days", async () => {
    const world = webhookWorld(NOW);
    const owner = await createCredential();
    const endpoint = await insertEndpoint(owner.id, { createdAt: NOW });
    await documentsApi(world.request(), owner.key).issue(minimalRequest());
    const noKeyring = { ...env, WEBHOOK_KEYRING: undefined } as unknown as Env;
    await world.consumeDue(noKeyring);
    expect(world.receiver.received).toEqual([]);
    expect(await attemptsTo(owner.id, endpoint.id)).toEqual([
      { status_code: null, error: "signing" },
    ]);
    const [delivery] = await deliveriesTo(owner.id, endpoint.id);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1 });
    expect((delivery?.next_attempt_at ?? 0) - NOW).toBeLessThanOrEqual(
      6 * SECOND,
    );
    for (let day = 1; day <= 3; day++) {
      world.clock.set(NOW + day * DAY);
      await world.cron(noKeyring);
      await world.consumeDue(noKeyring);
    }
    expect(await deliveriesTo(owner.id, endpoint.id)).toMatchObject([
      { status: "failed", next_attempt_at: null },
    ]);
    expect(world.receiver.received).toEqual([]);
  });
});

describe("an endpoint's secrets and state", () => {
  it("signs with the former secret too until it expires, after a rotation", async () => {
    const world = webhookWorld(NOW);
    const owner = await createCredential();
    const former = testSigningSecret();
    const endpoint = await insertEndpoint(owner.id, {
      createdAt: NOW,
      previousSecret: { secret: former, expiresAt: NOW + HOUR },
    });
    const api = documentsApi(world.request(), owner.key);
    await api.issue(minimalRequest());
    await world.consumeDue();
    world.clock.set(NOW + HOUR);
    await api.issue({ ...minimalRequest(), reference: null });
    await world.consumeDue();

    const [during, after] = world.receiver.received.map(signatureOf);
    expect(during?.signature.split(" ")).toHaveLength(2);
    expect(await signedBy(endpoint.secret, during as Signed)).toBe(true);
    expect(await signedBy(former, during as Signed)).toBe(true);
    expect(after?.signature.split(" ")).toHaveLength(1);
    expect(await signedBy(endpoint.secret, after as Signed)).toBe(true);
    expect(await signedBy(former, after as Signed)).toBe(false);
  });

  it("fails, posting nothing, a delivery whose endpoint was deleted or disabled", async () => {
    const world = webhookWorld(NOW, () => new Response("no", { status: 500 }));
    const owner = await createCredential();
    const deleted = await insertEndpoint(owner.id, { createdAt: NOW });
    const disabled = await insertEndpoint(owner.id, { createdAt: NOW });
    await documentsApi(world.request(), owner.key).issue(minimalRequest());
    await world.consumeDue();
    expect(world.receiver.received).toHaveLength(2);
    const home = eventsHome(owner.id)(shards);
    await home
      .prepare("DELETE FROM webhook_endpoints WHERE id = ?")
      .bind(deleted.id)
      .run();
    await home
      .prepare("UPDATE webhook_endpoints SET enabled = 0 WHERE id = ?")
      .bind(disabled.id)
      .run();
    world.clock.advance(HOUR);
    await world.consumeDue();
    expect(world.receiver.received).toHaveLength(2);
    for (const endpoint of [deleted, disabled]) {
      expect(await deliveriesTo(owner.id, endpoint.id)).toMatchObject([
        { status: "failed", attempts: 1, next_attempt_at: null },
      ]);
    }
  });
});
