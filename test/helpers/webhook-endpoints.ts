import { env } from "cloudflare:test";
import { homeShard } from "../../src/domain/shard-routing";
import type { Environment } from "../../src/schemas/environment";
import type { EventMessage } from "../../src/schemas/event-message";
import type { WebhookEndpoint } from "../../src/schemas/webhook-endpoint";
import { createCredential, type TestCredential } from "./credentials";
import { shards } from "./shards";
import { bearer, type Call, jsonRequest } from "./worker";

const BASE = "/api/v1/webhook-endpoints";

/** The webhook endpoint routes as a client uses them, with one key and one app. */
export function webhookEndpointsApi(request: Call, key: string) {
  return {
    create: (body: unknown) => request(BASE, jsonRequest("POST", key, body)),
    list: () => request(BASE, bearer(key)),
    get: (id: string) => request(`${BASE}/${id}`, bearer(key)),
    update: (id: string, body: unknown) =>
      request(`${BASE}/${id}`, jsonRequest("PATCH", key, body)),
    remove: (id: string) =>
      request(`${BASE}/${id}`, { method: "DELETE", ...bearer(key) }),
    rotate: (id: string) =>
      request(`${BASE}/${id}/rotate-secret`, {
        method: "POST",
        ...bearer(key),
      }),
    test: (id: string) =>
      request(`${BASE}/${id}/test`, { method: "POST", ...bearer(key) }),
    /** Creates an endpoint and returns the 201 answer, failing loudly otherwise. */
    async register(
      body: unknown = { url: "https://receiver.example/hooks", events: ["*"] },
    ): Promise<WebhookEndpoint & { secret: string }> {
      const response = await this.create(body);
      if (response.status !== 201) {
        throw new Error(
          `create answered ${response.status}: ${await response.text()}`,
        );
      }
      return (await response.json()) as WebhookEndpoint & { secret: string };
    },
  };
}

/** The D1 shard holding a credential's endpoints, events and deliveries. */
export const homeOf = (
  credentialId: string,
  environment: Environment = "test",
): D1Database => homeShard(shards, { id: credentialId, environment });

/** An endpoint's row as stored (column names as in D1), or null. */
export const endpointRow = (credentialId: string, id: string) =>
  homeOf(credentialId)
    .prepare("SELECT * FROM webhook_endpoints WHERE id = ?")
    .bind(id)
    .first<Record<string, unknown>>();

/**
 * `bindings` whose events queue records what is sent in `sent` (no
 * delivery is attempted), or fails every send.
 */
export function withQueue(
  sent: EventMessage[],
  bindings: Env = env,
  { failing = false } = {},
): Env {
  const queue = {
    async sendBatch(batch: { body: EventMessage }[]) {
      if (failing) throw new Error("queue unavailable");
      sent.push(...batch.map((message) => message.body));
    },
  };
  return { ...bindings, EVENTS: queue as unknown as Queue };
}

/**
 * Another credential whose endpoints live in the same shard as those of
 * `credentialId`: a test of who may reach an endpoint must not pass by the
 * routing alone.
 */
export async function neighbourOf(
  credentialId: string,
): Promise<TestCredential> {
  for (;;) {
    const other = await createCredential();
    if (homeOf(other.id) === homeOf(credentialId)) return other;
  }
}
