import { and, asc, desc, eq, gte, type SQL, sql } from "drizzle-orm";
import type { EventType } from "../schemas/event";
import type { Database } from "./client";
import {
  type EventRow,
  events,
  type WebhookAttemptRow,
  type WebhookDeliveryRow,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
} from "./schema";
import { subscribesTo } from "./webhook-endpoints";

// The event log of a credential, in its home shard: what the events API
// lists, shows and redelivers (docs/api.md, Events). Every query names the
// credential, so that another one's event is never found.

export interface EventListFilter {
  credentialId: string;
  /** The oldest creation time still kept: older events are never shown. */
  createdSince: number;
  type?: EventType | undefined;
  documentUuid?: string | undefined;
}

/** Where an event stands in a list, newest first: its time, then its id. */
export interface EventPosition {
  createdAt: number;
  id: string;
}

/** An event with its deliveries and their attempts. */
export interface EventDeliveries {
  event: EventRow;
  deliveries: WebhookDeliveryRow[];
  attempts: WebhookAttemptRow[];
}

const keptBy = (credentialId: string, createdSince: number) =>
  and(
    eq(events.credentialId, credentialId),
    gte(events.createdAt, createdSince),
  );

const keptEvent = (
  db: Database,
  credentialId: string,
  id: string,
  createdSince: number,
) =>
  db
    .select()
    .from(events)
    .where(and(eq(events.id, id), keptBy(credentialId, createdSince)))
    .limit(1);

/**
 * A page of the credential's events, newest first, after `after`: a
 * position, or an event id whose position the same batch reads (`after` in
 * the answer: null when that event is not kept here).
 */
export async function pageOfEvents(
  db: Database,
  filter: EventListFilter,
  after: string | EventPosition | undefined,
  limit: number,
): Promise<{ after: EventPosition | null | undefined; rows: EventRow[] }> {
  const page = (before: SQL | undefined) =>
    db
      .select()
      .from(events)
      .where(
        and(
          eq(events.credentialId, filter.credentialId),
          // A filter, not a bound of the index's range (unary +): with both
          // bounds SQLite, without statistics, would take the list's index
          // for a page of one type or document. What the purge has not yet
          // removed lies past the end of every page.
          sql`+${events.createdAt} >= ${filter.createdSince}`,
          filter.type === undefined ? undefined : eq(events.type, filter.type),
          filter.documentUuid === undefined
            ? undefined
            : eq(events.documentUuid, filter.documentUuid),
          before,
        ),
      )
      .orderBy(desc(events.createdAt), desc(events.id))
      .limit(limit);
  const olderThan = (position: SQL) =>
    sql`(${events.createdAt}, ${events.id}) < ${position}`;
  if (after === undefined) return { after, rows: await page(undefined) };
  if (typeof after !== "string") {
    const position = sql`(${after.createdAt}, ${after.id})`;
    return { after, rows: await page(olderThan(position)) };
  }
  const cursor = db
    .select({ createdAt: events.createdAt, id: events.id })
    .from(events)
    .where(
      and(
        eq(events.id, after),
        keptBy(filter.credentialId, filter.createdSince),
      ),
    );
  const [found, rows] = await db.batch([
    cursor,
    page(olderThan(sql`(${cursor})`)),
  ]);
  return { after: found[0] ?? null, rows };
}

const deliveriesOf = (db: Database, credentialId: string, eventId: string) =>
  db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.eventId, eventId),
        eq(webhookDeliveries.credentialId, credentialId),
      ),
    )
    .orderBy(
      asc(webhookDeliveries.createdAt),
      asc(webhookDeliveries.endpointId),
    );

const attemptsOf = (db: Database, credentialId: string, eventId: string) =>
  db
    .select()
    .from(webhookAttempts)
    .where(
      and(
        eq(webhookAttempts.eventId, eventId),
        eq(webhookAttempts.credentialId, credentialId),
      ),
    )
    .orderBy(asc(webhookAttempts.attemptedAt), asc(webhookAttempts.id));

/** One of the credential's kept events with its deliveries, in one batch. */
export async function findEventDeliveries(
  db: Database,
  credentialId: string,
  id: string,
  createdSince: number,
): Promise<EventDeliveries | undefined> {
  const [found, deliveries, attempts] = await db.batch([
    keptEvent(db, credentialId, id, createdSince),
    deliveriesOf(db, credentialId, id),
    attemptsOf(db, credentialId, id),
  ]);
  const [event] = found;
  return event && { event, deliveries, attempts };
}

/**
 * Holds for an endpoint that a redelivery of the event reaches: an enabled
 * one, which is a ping's own endpoint, or wants the event's type now, or was
 * sent the event before.
 */
const redeliveryReaches = sql`${webhookEndpoints.enabled} = 1 AND CASE
  WHEN ${events.type} = 'ping' THEN ${webhookEndpoints.id} = ${events.endpointId}
  ELSE (${subscribesTo(events.type)} OR EXISTS (
    SELECT 1 FROM ${webhookDeliveries}
    WHERE ${webhookDeliveries.eventId} = ${events.id}
      AND ${webhookDeliveries.endpointId} = ${webhookEndpoints.id}))
  END`;

export interface Redelivery {
  /** The event as it is now; undefined when the credential keeps none of this id here. */
  found: EventDeliveries | undefined;
  /** The endpoints whose delivery is now pending and due. */
  redelivered: string[];
  /** The endpoint asked for, if one was: null when the credential has none of this id. */
  endpoint?: { enabled: boolean } | null;
}

/**
 * Makes the event's deliveries to the endpoints a redelivery reaches (only
 * `endpointId`, when given) pending and due at `now`, their retries begun
 * again (their attempts stay), a missing one inserted, and reads the event back: one batch, which writes nothing
 * unless the event is the credential's and kept.
 */
export async function redeliverEvent(
  db: Database,
  credentialId: string,
  event: { id: string; createdSince: number; endpointId?: string | undefined },
  now: number,
): Promise<Redelivery> {
  const targets = db
    .select({
      // The fields in the table's column order, as insert-select requires.
      eventId: events.id,
      endpointId: webhookEndpoints.id,
      credentialId: events.credentialId,
      status: sql<"pending">`'pending'`.as("status"),
      attempts: sql<number>`0`.as("attempts"),
      nextAttemptAt: sql<number>`${now}`.as("next_attempt_at"),
      createdAt: sql<number>`${now}`.as("created_at"),
      updatedAt: sql<number>`${now}`.as("updated_at"),
      retryingSince: sql<number>`${now}`.as("retrying_since"),
    })
    .from(events)
    .innerJoin(
      webhookEndpoints,
      eq(webhookEndpoints.credentialId, events.credentialId),
    )
    .where(
      and(
        eq(events.id, event.id),
        keptBy(credentialId, event.createdSince),
        event.endpointId === undefined
          ? undefined
          : eq(webhookEndpoints.id, event.endpointId),
        redeliveryReaches,
      ),
    );
  const statements = [
    db
      .insert(webhookDeliveries)
      .select(targets)
      .onConflictDoUpdate({
        target: [webhookDeliveries.eventId, webhookDeliveries.endpointId],
        // Its retries begin again: the backoff and the 3 days count from now.
        set: {
          status: "pending",
          attempts: 0,
          nextAttemptAt: now,
          updatedAt: now,
          retryingSince: now,
        },
      })
      .returning({ endpointId: webhookDeliveries.endpointId }),
    keptEvent(db, credentialId, event.id, event.createdSince),
    deliveriesOf(db, credentialId, event.id),
    attemptsOf(db, credentialId, event.id),
  ] as const;
  const read = ([redelivered, found, deliveries, attempts]: readonly [
    { endpointId: string }[],
    EventRow[],
    WebhookDeliveryRow[],
    WebhookAttemptRow[],
  ]): Redelivery => ({
    found: found[0] && { event: found[0], deliveries, attempts },
    redelivered: redelivered.map((row) => row.endpointId),
  });
  if (event.endpointId === undefined) return read(await db.batch(statements));
  const [redelivered, found, deliveries, attempts, endpoint] = await db.batch([
    ...statements,
    db
      .select({ enabled: webhookEndpoints.enabled })
      .from(webhookEndpoints)
      .where(
        and(
          eq(webhookEndpoints.id, event.endpointId),
          eq(webhookEndpoints.credentialId, credentialId),
        ),
      )
      .limit(1),
  ]);
  return {
    ...read([redelivered, found, deliveries, attempts]),
    endpoint: endpoint[0] ?? null,
  };
}
