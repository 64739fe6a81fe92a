import {
  and,
  asc,
  eq,
  getTableColumns,
  inArray,
  isNull,
  lt,
  lte,
  notExists,
  sql,
} from "drizzle-orm";
import type { Database } from "./client";
import {
  type EventRow,
  eventOutbox,
  events,
  type WebhookEndpointRow,
  webhookDeliveries,
  webhookEndpoints,
} from "./schema";
import { subscribesTo } from "./webhook-endpoints";

// The relay of events from the documents' shards (event_outbox) to their
// credentials' home shards (events, webhook_deliveries): docs/failures.md.

const { relayedAt: _relayedAt, ...eventColumns } = getTableColumns(eventOutbox);

/** These documents' events not yet relayed, in this shard's outbox. */
export const findUnrelayedEvents = (
  db: Database,
  documentUuids: readonly string[],
): Promise<EventRow[]> =>
  db
    .select(eventColumns)
    .from(eventOutbox)
    .where(
      and(
        inArray(eventOutbox.documentUuid, [...documentUuids]),
        isNull(eventOutbox.relayedAt),
      ),
    );

/**
 * The documents of up to `limit` events written before `before` and still
 * not relayed, oldest first (a document once per event).
 */
export const findStaleUnrelayedDocuments = async (
  db: Database,
  before: number,
  limit: number,
): Promise<string[]> =>
  (
    await db
      .select({ documentUuid: eventOutbox.documentUuid })
      .from(eventOutbox)
      .where(
        and(isNull(eventOutbox.relayedAt), lt(eventOutbox.createdAt, before)),
      )
      .orderBy(asc(eventOutbox.createdAt))
      .limit(limit)
  ).flatMap(({ documentUuid }) =>
    documentUuid === null ? [] : [documentUuid],
  );

/** A delivery the relay created: due at once. */
export interface NewDelivery {
  eventId: string;
  endpointId: string;
}

/**
 * Events written into their credentials' home shard (this one), in one
 * batch: each event unless already there, and with it (only then) a
 * pending delivery due `now` to every endpoint of its credential that wants
 * its type and existed at its fact; then those credentials' enabled
 * endpoints, read for the deliveries' attempts. So a relay run again (a lost
 * answer, a message sent twice) writes nothing twice.
 */
export async function relayToHome(
  db: Database,
  relayed: readonly EventRow[],
  now: number,
): Promise<{ deliveries: NewDelivery[]; endpoints: WebhookEndpointRow[] }> {
  const deliveriesOf = (event: EventRow) =>
    db
      .insert(webhookDeliveries)
      .select(
        // The fields in the table's column order, as insert-select requires.
        db
          .select({
            eventId: sql<string>`${event.id}`.as("event_id"),
            endpointId: webhookEndpoints.id,
            credentialId: webhookEndpoints.credentialId,
            status: sql<"pending">`'pending'`.as("status"),
            attempts: sql<number>`0`.as("attempts"),
            nextAttemptAt: sql<number>`${now}`.as("next_attempt_at"),
            createdAt: sql<number>`${now}`.as("created_at"),
            updatedAt: sql<number>`${now}`.as("updated_at"),
            retryingSince: sql<null>`null`.as("retrying_since"),
          })
          .from(webhookEndpoints)
          .where(
            and(
              eq(webhookEndpoints.credentialId, event.credentialId),
              subscribesTo(event.type),
              // An endpoint receives the facts after its creation, however
              // late their relay: an earlier one's event is not its own.
              lte(webhookEndpoints.createdAt, event.createdAt),
              notExists(
                db
                  .select({ one: sql`1` })
                  .from(events)
                  .where(eq(events.id, event.id)),
              ),
            ),
          ),
      )
      .onConflictDoNothing()
      .returning({
        eventId: webhookDeliveries.eventId,
        endpointId: webhookDeliveries.endpointId,
      });
  const credentials = [...new Set(relayed.map((event) => event.credentialId))];
  const endpointsRead = db
    .select()
    .from(webhookEndpoints)
    .where(
      and(
        inArray(webhookEndpoints.credentialId, credentials),
        eq(webhookEndpoints.enabled, true),
      ),
    );
  const [endpoints, ...inserted] = await db.batch([
    endpointsRead,
    // Every event's deliveries before the events: their absence is the condition.
    ...relayed.map(deliveriesOf),
    ...relayed.map((event) =>
      db.insert(events).values(event).onConflictDoNothing(),
    ),
  ]);
  const deliveries = inserted.slice(0, relayed.length).flat() as NewDelivery[];
  return { deliveries, endpoints: endpoints as WebhookEndpointRow[] };
}

/** Marks these outbox events relayed (once their home shard's batch committed). */
export const markRelayed = async (
  db: Database,
  ids: readonly string[],
  now: number,
): Promise<void> => {
  await db
    .update(eventOutbox)
    .set({ relayedAt: now })
    .where(
      and(inArray(eventOutbox.id, [...ids]), isNull(eventOutbox.relayedAt)),
    );
};
