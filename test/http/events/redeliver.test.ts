import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  createCredential,
  type TestCredential,
} from "../../helpers/credentials";
import { expectContractError } from "../../helpers/error-contract";
import {
  deliveriesOf,
  demoCaller,
  newEventId,
  recordingQueue,
  seedAttempt,
  seedDelivery,
  seedEndpoint,
  seedEvent,
} from "../../helpers/event-rows";
import { d1Lost } from "../../helpers/faults";
import {
  bearer,
  callWithClock,
  fixedClock,
  jsonRequest,
} from "../../helpers/worker";

const NOW = Date.UTC(2026, 10, 21, 12);
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The app at NOW, with the events queue recorded. */
function redeliverer(bindings: Env = env) {
  const queue = recordingQueue(bindings);
  const request = callWithClock(fixedClock(NOW), queue.bindings);
  return {
    request,
    sent: queue.sent,
    redeliver: (owner: TestCredential, id: string, body?: unknown) =>
      request(
        `/api/v1/events/${id}/redeliver`,
        body === undefined
          ? { method: "POST", ...bearer(owner.key) }
          : jsonRequest("POST", owner.key, body),
      ),
  };
}

const delivery = (
  eventId: string,
  endpointId: string,
  owner: TestCredential,
) => ({
  kind: "delivery",
  eventId,
  endpointId,
  credentialId: owner.id,
});

/** An issued event an hour old, and endpoints of every kind around it. */
async function withEndpoints() {
  const owner = await createCredential();
  const event = await seedEvent(owner, { createdAt: NOW - 60 * MINUTE });
  const everything = await seedEndpoint(owner);
  const issuedOnly = await seedEndpoint(owner, {
    eventTypes: ["document.issued"],
  });
  // Wants other types now, but was sent this event (and gave up).
  const sentBefore = await seedEndpoint(owner, {
    eventTypes: ["document.deleted"],
  });
  await seedDelivery(owner, event, sentBefore, {
    status: "failed",
    attempts: 3,
    nextAttemptAt: null,
  });
  await seedAttempt(owner, event, sentBefore, {
    attemptedAt: NOW - 59 * MINUTE,
    statusCode: 500,
    error: null,
    durationMs: 80,
  });
  const disabled = await seedEndpoint(owner, {
    enabled: false,
    disabledReason: "failing",
  });
  const otherTypes = await seedEndpoint(owner, {
    eventTypes: ["document.accessed", "ping"],
  });
  // Another key's endpoint that wants everything.
  const colleague = await createCredential({
    organizationId: owner.organizationId,
  });
  await seedEndpoint(colleague);
  return {
    owner,
    event,
    everything,
    issuedOnly,
    sentBefore,
    disabled,
    otherTypes,
  };
}

describe("POST /api/v1/events/{id}/redeliver", () => {
  it("makes the delivery to every endpoint it reaches pending and due now, and sends one message each", async () => {
    const { owner, event, everything, issuedOnly, sentBefore } =
      await withEndpoints();
    const { redeliver, sent } = redeliverer();
    const response = await redeliver(owner, event.id);
    expect(response.status).toBe(202);
    const reached = [everything.id, issuedOnly.id, sentBefore.id].sort();
    const rows = await deliveriesOf(owner, event.id);
    expect(rows.map((row) => row.endpointId)).toEqual(reached);
    for (const row of rows) {
      expect(row).toMatchObject({
        status: "pending",
        nextAttemptAt: NOW,
        updatedAt: NOW,
        credentialId: owner.id,
      });
    }
    // The delivery given up on keeps its creation, and its retries begin
    // again now (its attempts stay listed).
    expect(rows.find((row) => row.endpointId === sentBefore.id)).toMatchObject({
      attempts: 0,
      retryingSince: NOW,
      createdAt: event.createdAt,
    });
    expect(sent.map((message) => JSON.stringify(message)).sort()).toEqual(
      reached.map((id) => JSON.stringify(delivery(event.id, id, owner))).sort(),
    );

    const body = (await response.json()) as {
      id: string;
      deliveries: {
        endpoint_id: string;
        status: string;
        attempts: unknown[];
        next_attempt_at: string;
      }[];
    };
    expect(body.id).toBe(event.id);
    expect(body.deliveries.map((d) => d.endpoint_id).sort()).toEqual(reached);
    for (const shown of body.deliveries) {
      expect(shown).toMatchObject({
        status: "pending",
        next_attempt_at: new Date(NOW).toISOString(),
      });
    }
    expect(
      body.deliveries.find((d) => d.endpoint_id === sentBefore.id)?.attempts,
    ).toHaveLength(1);
    // As the event's own page shows it.
    const page = await callWithClock(fixedClock(NOW))(
      `/api/v1/events/${event.id}`,
      bearer(owner.key),
    );
    expect(await page.json()).toEqual(body);
  });

  it("redelivers a delivered event again, and a second time alike", async () => {
    const owner = await createCredential();
    const event = await seedEvent(owner, { createdAt: NOW - DAY });
    const endpoint = await seedEndpoint(owner);
    await seedDelivery(owner, event, endpoint, {
      status: "delivered",
      attempts: 1,
      nextAttemptAt: null,
    });
    const { redeliver, sent } = redeliverer();
    for (let round = 1; round <= 2; round++) {
      expect((await redeliver(owner, event.id, {})).status).toBe(202);
      expect(await deliveriesOf(owner, event.id)).toEqual([
        expect.objectContaining({
          endpointId: endpoint.id,
          status: "pending",
          nextAttemptAt: NOW,
          attempts: 0,
          retryingSince: NOW,
        }),
      ]);
      expect(sent).toHaveLength(round);
    }
  });

  it("redelivers to the endpoint_id given only", async () => {
    const { owner, event, everything, issuedOnly } = await withEndpoints();
    const { redeliver, sent } = redeliverer();
    const response = await redeliver(owner, event.id, {
      endpoint_id: issuedOnly.id,
    });
    expect(response.status).toBe(202);
    expect(sent).toEqual([delivery(event.id, issuedOnly.id, owner)]);
    const rows = await deliveriesOf(owner, event.id);
    expect(rows.find((row) => row.endpointId === everything.id)).toBe(
      undefined,
    );
    expect(rows.find((row) => row.endpointId === issuedOnly.id)?.status).toBe(
      "pending",
    );
  });

  it("refuses an endpoint_id it would not reach with 422, changing nothing", async () => {
    const { owner, event, disabled, otherTypes } = await withEndpoints();
    const colleague = await createCredential();
    const foreign = await seedEndpoint(colleague);
    const before = await deliveriesOf(owner, event.id);
    const { redeliver, sent } = redeliverer();
    const messages: string[] = [];
    for (const endpointId of [
      "we_000000000000000000000000",
      foreign.id,
      disabled.id,
      otherTypes.id,
    ]) {
      const response = await redeliver(owner, event.id, {
        endpoint_id: endpointId,
      });
      expect(response.status).toBe(422);
      const { errors } = JSON.parse(await expectContractError(response));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({
        field: "endpoint_id",
        code: "INVALID_VALUE",
      });
      messages.push(errors[0].message);
    }
    // Another key's endpoint is no more than an unknown one.
    expect(messages[1]).toBe(messages[0]);
    expect(new Set(messages).size).toBe(3);
    // What cannot be an endpoint's id is refused by its form, as the description's pattern says.
    const malformed = await redeliver(owner, event.id, { endpoint_id: "x" });
    expect(malformed.status).toBe(422);
    expect(JSON.parse(await expectContractError(malformed)).errors).toEqual([
      expect.objectContaining({ field: "endpoint_id", code: "INVALID_FORMAT" }),
    ]);
    expect(await deliveriesOf(owner, event.id)).toEqual(before);
    expect(sent).toEqual([]);
  });

  it("re-sends a ping to its own endpoint only", async () => {
    const owner = await createCredential();
    const tested = await seedEndpoint(owner, {
      eventTypes: ["document.issued"],
    });
    const other = await seedEndpoint(owner);
    const ping = await seedEvent(owner, {
      type: "ping",
      createdAt: NOW - MINUTE,
      documentUuid: null,
      documentCreatedAt: null,
      transportDate: null,
      endpointId: tested.id,
    });
    const { redeliver, sent } = redeliverer();
    expect((await redeliver(owner, ping.id)).status).toBe(202);
    expect(sent).toEqual([delivery(ping.id, tested.id, owner)]);
    const refused = await redeliver(owner, ping.id, { endpoint_id: other.id });
    expect(refused.status).toBe(422);
    expect(sent).toHaveLength(1);
  });

  it("answers 202 with no delivery for a key without endpoints", async () => {
    const owner = await createCredential();
    const event = await seedEvent(owner, { createdAt: NOW - MINUTE });
    const { redeliver, sent } = redeliverer();
    const response = await redeliver(owner, event.id);
    expect(response.status).toBe(202);
    expect(await response.json()).toMatchObject({ deliveries: [] });
    expect(sent).toEqual([]);
  });

  it("is the same 404 for another key's event, one 30 days old and an unknown one, writing nothing", async () => {
    const owner = await createCredential();
    await seedEndpoint(owner);
    const colleague = await createCredential({
      organizationId: owner.organizationId,
    });
    await seedEndpoint(colleague);
    const foreign = await seedEvent(colleague, { createdAt: NOW - MINUTE });
    const expired = await seedEvent(owner, { createdAt: NOW - 30 * DAY });
    const { redeliver, sent } = redeliverer();
    for (const id of [foreign.id, expired.id, newEventId(), "evt_x"]) {
      const response = await redeliver(owner, id);
      expect(response.status).toBe(404);
      await expectContractError(response);
    }
    expect(await deliveriesOf(colleague, foreign.id)).toEqual([]);
    expect(await deliveriesOf(owner, expired.id)).toEqual([]);
    expect(sent).toEqual([]);
  });

  it("reads its optional body as every other JSON body: 415, 400, 422", async () => {
    const owner = await createCredential();
    const event = await seedEvent(owner, { createdAt: NOW - MINUTE });
    const { request } = redeliverer();
    const path = `/api/v1/events/${event.id}/redeliver`;
    const post = (body: string, type: string) =>
      request(path, {
        method: "POST",
        headers: { ...bearer(owner.key).headers, "Content-Type": type },
        body,
      });
    expect((await post('{"endpoint_id":"x"}', "text/plain")).status).toBe(415);
    expect((await post("{", "application/json")).status).toBe(400);
    const unknown = await post('{"endpoints":[]}', "application/json");
    expect(unknown.status).toBe(422);
    expect(await expectContractError(unknown)).toContain("UNKNOWN_FIELD");
    const wrongType = await post('{"endpoint_id":7}', "application/json");
    expect(wrongType.status).toBe(422);
    expect(await expectContractError(wrongType)).toContain("INVALID_TYPE");
    // An empty body, as HTTP sends it (`Content-Length: 0`), is no body,
    // whatever its type says.
    const empty = await request(path, {
      method: "POST",
      headers: {
        ...bearer(owner.key).headers,
        "Content-Type": "application/x-www-form-urlencoded",
        "Content-Length": "0",
      },
      body: "",
    });
    expect(empty.status).toBe(202);
  });

  it("answers 401 without a key, and 403 DEMO_NOT_ALLOWED to a demo token", async () => {
    const owner = await createCredential();
    const event = await seedEvent(owner, { createdAt: NOW - MINUTE });
    const { request, sent } = redeliverer();
    const path = `/api/v1/events/${event.id}/redeliver`;
    expect((await request(path, { method: "POST" })).status).toBe(401);
    const demo = await demoCaller(request, NOW);
    const refused = await demo.request(path, {
      method: "POST",
      ...bearer(demo.key),
    });
    expect(refused.status).toBe(403);
    expect(await expectContractError(refused)).toContain("DEMO_NOT_ALLOWED");
    expect(sent).toEqual([]);
  });

  it("leaves the deliveries due when the queue refuses the messages, for the cron to send", async () => {
    const { owner, event } = await withEndpoints();
    const queue = recordingQueue(env, { failing: true });
    const request = callWithClock(fixedClock(NOW), queue.bindings);
    const response = await request(`/api/v1/events/${event.id}/redeliver`, {
      method: "POST",
      ...bearer(owner.key),
    });
    expect(response.status).toBe(202);
    const rows = await deliveriesOf(owner, event.id);
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row).toMatchObject({ status: "pending", nextAttemptAt: NOW });
    }
  });

  it("after a lost answer of its batch, leaves the deliveries due and a retry redelivers the same ones once", async () => {
    const { owner, event, everything, issuedOnly, sentBefore } =
      await withEndpoints();
    const lost = redeliverer(d1Lost(/insert into "webhook_deliveries"/i));
    const failed = await lost.redeliver(owner, event.id);
    expect(failed.status).toBe(503);
    await expectContractError(failed);
    expect(lost.sent).toEqual([]);
    const reached = [everything.id, issuedOnly.id, sentBefore.id].sort();
    const applied = await deliveriesOf(owner, event.id);
    expect(applied.map((row) => row.endpointId)).toEqual(reached);

    const retry = redeliverer();
    expect((await retry.redeliver(owner, event.id)).status).toBe(202);
    expect(await deliveriesOf(owner, event.id)).toEqual(applied);
    expect(retry.sent).toHaveLength(3);
  });
});
