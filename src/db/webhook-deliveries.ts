import {
  and,
  asc,
  eq,
  exists,
  isNotNull,
  isNull,
  lt,
  lte,
  sql,
} from "drizzle-orm";
import type {
  ATTEMPT_ERRORS,
  DELIVERY_STATUSES,
} from "../schemas/event-result";
import type { Database } from "./client";
import {
  type EventRow,
  events,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
} from "./schema";

// The deliveries of events to webhook endpoints and their attempts, in the
// credential's home shard (docs/failures.md).

/** A delivery: an event to one endpoint. */
export interface DeliveryKey {
  eventId: string;
  endpointId: string;
}

const isDelivery = ({ eventId, endpointId }: DeliveryKey) =>
  and(
    eq(webhookDeliveries.eventId, eventId),
    eq(webhookDeliveries.endpointId, endpointId),
  );

// A literal, not a parameter: the partial indexes on pending deliveries
// serve a query only when its condition names 'pending' itself.
const isPending = sql`${webhookDeliveries.status} = 'pending'`;

/** A delivery with its event and its endpoint, read in one batch; each null when absent. */
export async function findDelivery(
  db: Database,
  key: DeliveryKey,
): Promise<{
  delivery: WebhookDeliveryRow | null;
  event: EventRow | null;
  endpoint: WebhookEndpointRow | null;
}> {
  const [[delivery], [event], [endpoint]] = await db.batch([
    db.select().from(webhookDeliveries).where(isDelivery(key)),
    db.select().from(events).where(eq(events.id, key.eventId)),
    db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, key.endpointId)),
  ]);
  return {
    delivery: delivery ?? null,
    event: event ?? null,
    endpoint: endpoint ?? null,
  };
}

/** One POST of a delivery, as its owner sees it. */
export interface AttemptRow {
  eventId: string;
  endpointId: string;
  credentialId: string;
  attemptedAt: number;
  statusCode: number | null;
  error: (typeof ATTEMPT_ERRORS)[number] | null;
  durationMs: number;
}

/** What an attempt makes of its delivery and endpoint (src/domain/events/deliver.ts). */
export interface AttemptOutcome {
  status: (typeof DELIVERY_STATUSES)[number];
  nextAttemptAt: number | null;
  /**
   * What the attempt says of its endpoint: it took the delivery (its failures end);
   * it failed, and is disabled, its pending deliveries failed, if it has
   * failed every attempt since `disableIfFailingSince` or earlier; or
   * nothing (null: nothing was posted).
   */
  endpoint: "delivered" | { disableIfFailingSince: number } | null;
}

/** An attempt with what it makes of its delivery. */
export interface AttemptRecord {
  attempt: AttemptRow;
  outcome: AttemptOutcome;
}

/** The statements that record one attempt (recordAttempts). */
function attemptStatements(db: Database, { attempt, outcome }: AttemptRecord) {
  const at = attempt.attemptedAt + attempt.durationMs;
  return [
    db.insert(webhookAttempts).values(attempt),
    db
      .update(webhookDeliveries)
      .set({
        status: outcome.status,
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        nextAttemptAt: outcome.nextAttemptAt,
        updatedAt: at,
      })
      .where(and(isDelivery(attempt), isPending)),
    ...endpointStatements(db, attempt, outcome.endpoint, at),
  ];
}

/** What an attempt's record writes on its endpoint (AttemptOutcome's `endpoint`). */
function endpointStatements(
  db: Database,
  attempt: AttemptRow,
  said: AttemptOutcome["endpoint"],
  at: number,
) {
  const endpoint = eq(webhookEndpoints.id, attempt.endpointId);
  // A delivery ends the endpoint's failures; a failure starts them (each a
  // write only when it changes something).
  if (said === null) return [];
  if (said === "delivered") {
    return [
      db
        .update(webhookEndpoints)
        .set({ failingSince: null })
        .where(and(endpoint, isNotNull(webhookEndpoints.failingSince))),
    ];
  }
  return [
    db
      .update(webhookEndpoints)
      .set({ failingSince: attempt.attemptedAt })
      .where(and(endpoint, isNull(webhookEndpoints.failingSince))),
    db
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: "failing", updatedAt: at })
      .where(
        and(
          endpoint,
          eq(webhookEndpoints.enabled, true),
          lte(webhookEndpoints.failingSince, said.disableIfFailingSince),
        ),
      ),
    db
      .update(webhookDeliveries)
      .set({ status: "failed", nextAttemptAt: null, updatedAt: at })
      .where(
        and(
          eq(webhookDeliveries.endpointId, attempt.endpointId),
          isPending,
          exists(
            db
              .select({ one: sql`1` })
              .from(webhookEndpoints)
              .where(
                and(
                  endpoint,
                  eq(webhookEndpoints.enabled, false),
                  eq(webhookEndpoints.disabledReason, "failing"),
                ),
              ),
          ),
        ),
      ),
  ];
}

/**
 * Records attempts of deliveries of this home shard in one batch: each
 * attempt itself, its delivery's new state (only while the delivery is
 * still pending: a concurrent attempt may have settled it), and its
 * endpoint's.
 */
export async function recordAttempts(
  db: Database,
  records: readonly AttemptRecord[],
): Promise<void> {
  const [first, ...rest] = records.flatMap((record) =>
    attemptStatements(db, record),
  );
  if (first) await db.batch([first, ...rest]);
}

/** A pending delivery that will not be attempted (its endpoint is gone or disabled) fails. */
export const failDelivery = async (
  db: Database,
  key: DeliveryKey,
  at: number,
): Promise<void> => {
  await db
    .update(webhookDeliveries)
    .set({ status: "failed", nextAttemptAt: null, updatedAt: at })
    .where(and(isDelivery(key), isPending));
};

/** Up to `limit` pending deliveries due before `before`, the most overdue first. */
export const findOverdueDeliveries = (
  db: Database,
  before: number,
  limit: number,
): Promise<(DeliveryKey & { credentialId: string })[]> =>
  db
    .select({
      eventId: webhookDeliveries.eventId,
      endpointId: webhookDeliveries.endpointId,
      credentialId: webhookDeliveries.credentialId,
    })
    .from(webhookDeliveries)
    .where(and(isPending, lt(webhookDeliveries.nextAttemptAt, before)))
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(limit);
