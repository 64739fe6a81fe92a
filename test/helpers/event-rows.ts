import { asc, eq } from "drizzle-orm";
import { type Database, openDatabase } from "../../src/db/client";
import {
  type EventRow,
  events,
  type WebhookAttemptRow,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
} from "../../src/db/schema";
import { homeShard } from "../../src/domain/shard-routing";
import type { EventMessage } from "../../src/schemas/event-message";
import { createCredential, type TestCredential } from "./credentials";
import { shards } from "./shards";
import { withQueue } from "./webhook-endpoints";
import { type Call, fromIp } from "./worker";

// Rows of a credential's event log, straight into its home shard, as the
// relay and the deliveries write them.

/** The home shard of a test credential (a `test` key's). */
const homeOf = (owner: TestCredential): Database =>
  openDatabase(homeShard(shards, { id: owner.id, environment: "test" }));

const hex = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(12)), (byte) =>
    byte.toString(16).padStart(2, "0"),
  ).join("");

/** A new event id, as SQLite draws them. */
export const newEventId = (): string => `evt_${hex()}`;

/** A document.issued event of `owner` (or what `changes` make of it), stored. */
export async function seedEvent(
  owner: TestCredential,
  changes: Partial<EventRow> = {},
): Promise<EventRow> {
  const row: EventRow = {
    id: newEventId(),
    type: "document.issued",
    credentialId: owner.id,
    environment: "test",
    createdAt: Date.now(),
    documentUuid: crypto.randomUUID(),
    reference: null,
    rectifiesUuid: null,
    documentCreatedAt: changes.createdAt ?? Date.now(),
    transportDate: "2026-11-21",
    firstAccess: null,
    accessedVia: null,
    endpointId: null,
    datasetId: null,
    shipment: null,
    message: null,
    ...changes,
  };
  await homeOf(owner).insert(events).values(row);
  return row;
}

/** A webhook endpoint row of `credentialId`, enabled and wanting every type unless `changes` say otherwise. */
export const endpointRow = (
  credentialId: string,
  changes: Partial<WebhookEndpointRow> = {},
): WebhookEndpointRow => ({
  id: `we_${hex().slice(0, 24)}`,
  credentialId,
  url: "https://receiver.example/webhooks",
  eventTypes: ["*"],
  description: null,
  enabled: true,
  disabledReason: null,
  failingSince: null,
  // Never opened here: these tests sign nothing.
  secret: "v1:sealed",
  previousSecret: null,
  previousSecretExpiresAt: null,
  createdAt: 0,
  updatedAt: 0,
  ...changes,
});

/**
 * A webhook endpoint of `owner` (endpointRow), in its home shard unless
 * `home` is another.
 */
export async function seedEndpoint(
  owner: TestCredential,
  changes: Partial<WebhookEndpointRow> = {},
  home: Database = homeOf(owner),
): Promise<WebhookEndpointRow> {
  const row = endpointRow(owner.id, changes);
  await home.insert(webhookEndpoints).values(row);
  return row;
}

/** The delivery of `event` to `endpoint`, with `changes`. */
export async function seedDelivery(
  owner: TestCredential,
  event: EventRow,
  endpoint: WebhookEndpointRow,
  changes: Partial<WebhookDeliveryRow> = {},
): Promise<WebhookDeliveryRow> {
  const row: WebhookDeliveryRow = {
    eventId: event.id,
    endpointId: endpoint.id,
    credentialId: owner.id,
    status: "pending",
    attempts: 0,
    nextAttemptAt: event.createdAt,
    createdAt: event.createdAt,
    updatedAt: event.createdAt,
    retryingSince: null,
    ...changes,
  };
  await homeOf(owner).insert(webhookDeliveries).values(row);
  return row;
}

/** One attempt of the delivery of `event` to `endpoint`. */
export async function seedAttempt(
  owner: TestCredential,
  event: EventRow,
  endpoint: WebhookEndpointRow,
  attempt: Pick<
    WebhookAttemptRow,
    "attemptedAt" | "statusCode" | "error" | "durationMs"
  >,
): Promise<void> {
  await homeOf(owner)
    .insert(webhookAttempts)
    .values({
      eventId: event.id,
      endpointId: endpoint.id,
      credentialId: owner.id,
      ...attempt,
    });
}

/** Every delivery of `eventId` in the home shard, by endpoint id. */
export async function deliveriesOf(
  owner: TestCredential,
  eventId: string,
): Promise<WebhookDeliveryRow[]> {
  return homeOf(owner)
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.eventId, eventId))
    .orderBy(asc(webhookDeliveries.endpointId));
}

/**
 * The Worker's bindings with the events queue replaced by one that keeps
 * what is sent (`sent`), so that a test reads the messages without a
 * consumer running; `failing` makes every send throw.
 */
export function recordingQueue(
  env: Env,
  options: { failing?: boolean } = {},
): { bindings: Env; sent: EventMessage[] } {
  const sent: EventMessage[] = [];
  return { bindings: withQueue(sent, env, options), sent };
}

/** A demo token valid at `now`, and `request` from the IP it is bound to. */
export async function demoCaller(request: Call, now: number) {
  const ip = "203.0.113.78";
  const demo = await createCredential({
    environment: "demo",
    expiresAt: now + 60 * 60 * 1000,
    requesterIp: ip,
  });
  return { key: demo.key, request: fromIp(request, ip) };
}
