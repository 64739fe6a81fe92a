import { describe, expect, it } from "vitest";
import { createCredential } from "../../helpers/credentials";
import { comparable } from "../../helpers/documents-api";
import { expectContractError } from "../../helpers/error-contract";
import {
  demoCaller,
  newEventId,
  seedAttempt,
  seedDelivery,
  seedEndpoint,
  seedEvent,
} from "../../helpers/event-rows";
import { bearer, callWithClock, fixedClock } from "../../helpers/worker";

const NOW = Date.UTC(2026, 10, 21, 12);
const SECOND = 1000;
const DAY = 24 * 60 * 60 * SECOND;
const at = (ms: number) => new Date(ms).toISOString();

const request = callWithClock(fixedClock(NOW));

describe("GET /api/v1/events/{id}", () => {
  it("shows the event with each delivery's attempts and next attempt", async () => {
    const owner = await createCredential();
    const created = NOW - 60 * SECOND;
    const event = await seedEvent(owner, {
      type: "document.deleted",
      createdAt: created,
      reference: "PED-2026-0042",
      documentCreatedAt: created - 30 * 60 * SECOND,
    });
    const first = await seedEndpoint(owner);
    const second = await seedEndpoint(owner, {
      eventTypes: ["document.deleted"],
    });
    await seedDelivery(owner, event, first, {
      status: "delivered",
      attempts: 2,
      nextAttemptAt: null,
    });
    await seedDelivery(owner, event, second, {
      attempts: 1,
      nextAttemptAt: NOW + 5 * SECOND,
      createdAt: created + 1,
    });
    await seedAttempt(owner, event, first, {
      attemptedAt: created + 2 * SECOND,
      statusCode: 503,
      error: null,
      durationMs: 140,
    });
    await seedAttempt(owner, event, second, {
      attemptedAt: created + 2 * SECOND,
      statusCode: null,
      error: "timeout",
      durationMs: 10_000,
    });
    await seedAttempt(owner, event, first, {
      attemptedAt: created + 7 * SECOND,
      statusCode: 204,
      error: null,
      durationMs: 35,
    });
    // Another event's delivery to the same endpoint is not this one's.
    const other = await seedEvent(owner, { createdAt: created });
    await seedDelivery(owner, other, first);

    const response = await request(
      `/api/v1/events/${event.id}`,
      bearer(owner.key),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: event.id,
      type: "document.deleted",
      created_at: at(created),
      environment: "test",
      data: {
        uuid: event.documentUuid,
        reference: "PED-2026-0042",
        rectifies_uuid: null,
        created_at: at(created - 30 * 60 * SECOND),
        transport_date: "2026-11-21",
      },
      deliveries: [
        {
          endpoint_id: first.id,
          status: "delivered",
          attempts: [
            {
              attempted_at: at(created + 2 * SECOND),
              status_code: 503,
              error: null,
              duration_ms: 140,
            },
            {
              attempted_at: at(created + 7 * SECOND),
              status_code: 204,
              error: null,
              duration_ms: 35,
            },
          ],
          next_attempt_at: null,
        },
        {
          endpoint_id: second.id,
          status: "pending",
          attempts: [
            {
              attempted_at: at(created + 2 * SECOND),
              status_code: null,
              error: "timeout",
              duration_ms: 10_000,
            },
          ],
          next_attempt_at: at(NOW + 5 * SECOND),
        },
      ],
    });
  });

  it("shows a ping, and an event not yet sent anywhere with no deliveries", async () => {
    const owner = await createCredential();
    const endpoint = await seedEndpoint(owner);
    const ping = await seedEvent(owner, {
      type: "ping",
      createdAt: NOW - SECOND,
      documentUuid: null,
      documentCreatedAt: null,
      transportDate: null,
      endpointId: endpoint.id,
    });
    const response = await request(
      `/api/v1/events/${ping.id}`,
      bearer(owner.key),
    );
    expect(await response.json()).toEqual({
      id: ping.id,
      type: "ping",
      created_at: at(NOW - SECOND),
      environment: "test",
      data: { webhook_endpoint_id: endpoint.id },
      deliveries: [],
    });
  });

  it("is the same 404 for another key's event, an unknown one, one 30 days old and an id that names none", async () => {
    const owner = await createCredential();
    const colleague = await createCredential({
      organizationId: owner.organizationId,
    });
    const foreign = await seedEvent(colleague, { createdAt: NOW - SECOND });
    const expired = await seedEvent(owner, { createdAt: NOW - 30 * DAY });
    const kept = await seedEvent(owner, { createdAt: NOW - 30 * DAY + 1 });
    const get = (id: string) =>
      request(`/api/v1/events/${id}`, bearer(owner.key));
    expect((await get(kept.id)).status).toBe(200);
    const unknown = await comparable(await get(newEventId()));
    expect(unknown.status).toBe(404);
    for (const id of [foreign.id, expired.id, "evt_NOT-AN-ID", "42"]) {
      const response = await get(id);
      await expectContractError(response.clone());
      expect(await comparable(response)).toEqual(unknown);
    }
  });

  it("answers 401 without a key, and 403 DEMO_NOT_ALLOWED to a demo token", async () => {
    const owner = await createCredential();
    const event = await seedEvent(owner, { createdAt: NOW - SECOND });
    const path = `/api/v1/events/${event.id}`;
    expect((await request(path)).status).toBe(401);
    const demo = await demoCaller(request, NOW);
    const refused = await demo.request(path, bearer(demo.key));
    expect(refused.status).toBe(403);
    expect(await expectContractError(refused)).toContain("DEMO_NOT_ALLOWED");
  });
});
