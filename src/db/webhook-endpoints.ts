import {
  and,
  asc,
  type Column,
  count,
  eq,
  inArray,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import type { EventType } from "../schemas/event";
import { ALL_EVENT_TYPES } from "../schemas/webhook-endpoint";
import type { Database } from "./client";
import { literalRow } from "./literal-row";
import {
  type EventRow,
  events,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
  webhookDeliveries,
  webhookEndpoints,
} from "./schema";

// A credential's webhook endpoints, in its home shard. Every statement names
// the credential: another credential's endpoint is never read or written.

/** Holds for an enabled endpoint that wants events of `type` (a ping goes only to the endpoint tested). */
export const subscribesTo = (type: EventType | Column): SQL =>
  sql`${webhookEndpoints.enabled} = 1 AND ${or(
    eq(webhookEndpoints.eventTypes, [ALL_EVENT_TYPES]),
    sql`EXISTS (SELECT 1 FROM json_each(${webhookEndpoints.eventTypes}) WHERE value = ${type})`,
  )}`;

/** Holds for an endpoint not disabled by its key's revocation, which nothing changes back. */
const notRevoked = sql`${webhookEndpoints.disabledReason} IS NOT 'revoked'`;

const endpointOf = (credentialId: string, id: string) =>
  and(
    eq(webhookEndpoints.id, id),
    eq(webhookEndpoints.credentialId, credentialId),
  );

/**
 * Inserts `row` only while its credential has fewer than `max` endpoints:
 * the count is the insert's own condition, so two creates racing for the
 * last place cannot both pass. Whether it was inserted.
 */
export async function insertEndpointUnderLimit(
  db: Database,
  row: WebhookEndpointRow,
  max: number,
): Promise<boolean> {
  const endpoints = db
    .select({ count: count() })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.credentialId, row.credentialId));
  const inserted = await db
    .insert(webhookEndpoints)
    .select(
      db
        .select(literalRow(webhookEndpoints, row))
        .from(sql`(select 1)`)
        .where(sql`(${endpoints}) < ${max}`),
    )
    .returning({ id: webhookEndpoints.id });
  return inserted.length > 0;
}

/** A credential's endpoints, oldest first. */
export const listEndpoints = (
  db: Database,
  credentialId: string,
): Promise<WebhookEndpointRow[]> =>
  db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.credentialId, credentialId))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));

export const findEndpoint = async (
  db: Database,
  credentialId: string,
  id: string,
): Promise<WebhookEndpointRow | undefined> =>
  (
    await db.select().from(webhookEndpoints).where(endpointOf(credentialId, id))
  )[0];

/** What an update may change. */
export interface EndpointChanges {
  url?: string;
  eventTypes?: string[];
  description?: string | null;
  enabled?: boolean;
}

/**
 * Applies `changes`; the endpoint as it now is, or undefined when the
 * credential has none of that id. Setting `enabled` is the owner's
 * decision: it clears a disabling by the service, and enabling a disabled
 * endpoint forgets its failures so far (a fresh 3 days). An endpoint
 * disabled by its key's revocation is changed no more: a request the key
 * made while being revoked must not start it again.
 */
export async function updateEndpoint(
  db: Database,
  credentialId: string,
  id: string,
  changes: EndpointChanges,
  now: number,
): Promise<WebhookEndpointRow | undefined> {
  const { enabled } = changes;
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      ...changes,
      ...(enabled === undefined ? {} : { disabledReason: null }),
      ...(enabled
        ? {
            failingSince: sql`CASE WHEN ${webhookEndpoints.enabled} = 1 THEN ${webhookEndpoints.failingSince} END`,
          }
        : {}),
      updatedAt: now,
    })
    .where(and(endpointOf(credentialId, id), notRevoked))
    .returning();
  return row;
}

/**
 * Makes `sealed` the endpoint's secret, and its secret until now the
 * previous one, which keeps signing until `previousExpiresAt` (a previous
 * one still valid is replaced). The endpoint, or undefined when the
 * credential has none of that id.
 */
export async function rotateEndpointSecret(
  db: Database,
  credentialId: string,
  id: string,
  rotation: { sealed: string; previousExpiresAt: number; now: number },
): Promise<WebhookEndpointRow | undefined> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      // SQLite reads the row as it was: the secret before this update.
      previousSecret: sql`${webhookEndpoints.secret}`,
      previousSecretExpiresAt: rotation.previousExpiresAt,
      secret: rotation.sealed,
      updatedAt: rotation.now,
    })
    .where(endpointOf(credentialId, id))
    .returning();
  return row;
}

/**
 * Deletes the endpoint and, in the same batch, fails its deliveries still
 * pending, which no attempt will reach now (their history stays with their
 * events). Whether the credential had it.
 */
export async function deleteEndpoint(
  db: Database,
  credentialId: string,
  id: string,
  now: number,
): Promise<boolean> {
  const [deleted] = await db.batch([
    db
      .delete(webhookEndpoints)
      .where(endpointOf(credentialId, id))
      .returning({ id: webhookEndpoints.id }),
    db
      .update(webhookDeliveries)
      .set({ status: "failed", nextAttemptAt: null, updatedAt: now })
      .where(
        and(
          eq(webhookDeliveries.endpointId, id),
          eq(webhookDeliveries.credentialId, credentialId),
          // Written as the partial index says it: a bound parameter would
          // not let SQLite use webhook_deliveries_endpoint_idx.
          sql`${webhookDeliveries.status} = 'pending'`,
        ),
      ),
  ]);
  return deleted.length > 0;
}

/**
 * Disables every endpoint of a credential being revoked and fails their
 * deliveries still pending, in one batch; each statement writes only what
 * is not so yet, so a call again (after an answer lost) changes nothing
 * done and finishes what was not.
 */
export async function disableRevokedEndpoints(
  db: Database,
  credentialId: string,
  now: number,
): Promise<void> {
  await db.batch([
    db
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: "revoked", updatedAt: now })
      .where(and(eq(webhookEndpoints.credentialId, credentialId), notRevoked)),
    db
      .update(webhookDeliveries)
      .set({ status: "failed", nextAttemptAt: null, updatedAt: now })
      .where(
        and(
          eq(webhookDeliveries.credentialId, credentialId),
          // Through webhook_deliveries_endpoint_idx, as deleteEndpoint.
          sql`${webhookDeliveries.status} = 'pending'`,
          inArray(
            webhookDeliveries.endpointId,
            db
              .select({ id: webhookEndpoints.id })
              .from(webhookEndpoints)
              .where(eq(webhookEndpoints.credentialId, credentialId)),
          ),
        ),
      ),
  ]);
}

/**
 * Writes a ping event and its one delivery, due now, in one batch, both only
 * if the credential has the endpoint it names. Whether it had it.
 */
export async function insertPing(
  db: Database,
  event: EventRow & { endpointId: string },
): Promise<boolean> {
  const delivery: WebhookDeliveryRow = {
    eventId: event.id,
    endpointId: event.endpointId,
    credentialId: event.credentialId,
    status: "pending",
    attempts: 0,
    nextAttemptAt: event.createdAt,
    createdAt: event.createdAt,
    updatedAt: event.createdAt,
    retryingSince: null,
  };
  const toEndpoint = endpointOf(event.credentialId, event.endpointId);
  const [inserted] = await db.batch([
    db
      .insert(events)
      .select(
        db
          .select(literalRow(events, event))
          .from(webhookEndpoints)
          .where(toEndpoint),
      )
      .returning({ id: events.id }),
    db
      .insert(webhookDeliveries)
      .select(
        db
          .select(literalRow(webhookDeliveries, delivery))
          .from(webhookEndpoints)
          .where(toEndpoint),
      ),
  ]);
  return inserted.length > 0;
}
