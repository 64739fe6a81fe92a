import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { EventMessage } from "../../../src/schemas/event-message";
import {
  createCredential,
  type TestCredential,
} from "../../helpers/credentials";
import { d1Down, d1Lost } from "../../helpers/faults";
import { rowsOfAllShards } from "../../helpers/shards";
import {
  homeOf,
  neighbourOf,
  webhookEndpointsApi,
  withQueue,
} from "../../helpers/webhook-endpoints";
import { callWithClock, fixedClock } from "../../helpers/worker";

// POST …/test: a ping event for one endpoint, written in the key's event
// log with its one delivery in one batch, then announced on the queue for
// the delivery to be attempted.

const NOW = Date.UTC(2026, 10, 21, 8, 30);

async function keyWithEndpoints(
  environment: "test" | "live" = "test",
  given?: TestCredential,
) {
  const credential = given ?? (await createCredential({ environment }));
  const sent: EventMessage[] = [];
  const on = (bindings: Env) =>
    webhookEndpointsApi(
      callWithClock(fixedClock(NOW), bindings),
      credential.key,
    );
  const api = on(withQueue(sent));
  const tested = await api.register();
  const other = await api.register();
  return { credential, sent, on, api, tested, other };
}

const rowsOf = (credentialId: string) =>
  Promise.all([
    rowsOfAllShards(
      "SELECT id, type, environment, created_at, endpoint_id, document_uuid FROM events WHERE credential_id = ?",
      credentialId,
    ),
    rowsOfAllShards(
      "SELECT event_id, endpoint_id, status, attempts, next_attempt_at FROM webhook_deliveries WHERE credential_id = ?",
      credentialId,
    ),
  ]);

describe("testing an endpoint", () => {
  it.each(["test", "live"] as const)(
    "answers 202 with a %s ping event, written with one delivery to that endpoint only in the key's home shard, and sends it",
    async (environment) => {
      const { credential, sent, api, tested } =
        await keyWithEndpoints(environment);
      const response = await api.test(tested.id);
      expect(response.status).toBe(202);
      const event = (await response.json()) as { id: string };
      expect(event).toEqual({
        id: expect.stringMatching(/^evt_[0-9a-f]{24}$/),
        type: "ping",
        created_at: new Date(NOW).toISOString(),
        environment,
        data: { webhook_endpoint_id: tested.id },
      });
      const [events, deliveries] = await rowsOf(credential.id);
      expect(events).toEqual([
        {
          id: event.id,
          type: "ping",
          environment,
          created_at: NOW,
          endpoint_id: tested.id,
          document_uuid: null,
        },
      ]);
      expect(deliveries).toEqual([
        {
          event_id: event.id,
          endpoint_id: tested.id,
          status: "pending",
          attempts: 0,
          next_attempt_at: NOW,
        },
      ]);
      const home = await homeOf(credential.id, environment)
        .prepare("SELECT count(*) AS n FROM events WHERE id = ?")
        .bind(event.id)
        .first<{ n: number }>();
      expect(home?.n).toBe(1);
      expect(sent).toEqual([
        {
          kind: "delivery",
          eventId: event.id,
          endpointId: tested.id,
          credentialId: credential.id,
        },
      ]);
    },
  );

  it("writes and sends nothing for an endpoint the key does not have", async () => {
    const { sent, api, credential } = await keyWithEndpoints();
    const stranger = await keyWithEndpoints(
      "test",
      await neighbourOf(credential.id),
    );
    for (const id of [stranger.tested.id, "we_000000000000000000000000"]) {
      expect((await api.test(id)).status).toBe(404);
    }
    expect(await rowsOf(credential.id)).toEqual([[], []]);
    expect(await rowsOf(stranger.credential.id)).toEqual([[], []]);
    expect(sent).toEqual([]);
  });

  it("answers 503 and writes nothing when the batch fails before it is applied", async () => {
    const { credential, sent, on, tested } = await keyWithEndpoints();
    const response = await on(
      withQueue(sent, d1Down(/insert into "events"/)),
    ).test(tested.id);
    expect(response.status).toBe(503);
    expect(await rowsOf(credential.id)).toEqual([[], []]);
    expect(sent).toEqual([]);
  });

  it("answers 503 when the batch's answer is lost, leaving its event and due delivery for the cron to send", async () => {
    const { credential, sent, on, tested } = await keyWithEndpoints();
    const response = await on(
      withQueue(sent, d1Lost(/insert into "events"/)),
    ).test(tested.id);
    expect(response.status).toBe(503);
    const [events, deliveries] = await rowsOf(credential.id);
    expect(events).toHaveLength(1);
    expect(deliveries).toMatchObject([
      { endpoint_id: tested.id, status: "pending", next_attempt_at: NOW },
    ]);
    expect(sent).toEqual([]);
  });

  it("answers 202 when the send fails: the delivery stays due for the cron", async () => {
    const { credential, sent, on, tested } = await keyWithEndpoints();
    const response = await on(withQueue(sent, env, { failing: true })).test(
      tested.id,
    );
    expect(response.status).toBe(202);
    const [, deliveries] = await rowsOf(credential.id);
    expect(deliveries).toMatchObject([
      { endpoint_id: tested.id, status: "pending", next_attempt_at: NOW },
    ]);
  });
});
