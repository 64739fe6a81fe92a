import {
  and,
  asc,
  eq,
  exists,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import { GATE_ENVIRONMENT } from "../schemas/environment";
import type { REGISTRATION_STATES } from "../schemas/ops";
import type { Database } from "./client";
import {
  documents,
  type EftiRegistrationRow,
  eftiRegistrations,
} from "./schema";

// The eFTI gate's registrations (docs/efti.md "Registration with the gate"):
// written in the batch of each issue, correction and deletion, in the
// document's shard; each tried in one chain of attempts (its next attempt's
// time), marked sent once the gate answered 2xx, parked when it refused it
// for good.

/** A new registration id, drawn by SQLite for each row of the batch that writes it. */
const newRegistrationId = sql<string>`'reg_' || lower(hex(randomblob(12)))`;

/**
 * The insert of one registration per dataset id of a document, taking effect
 * only if the document is there when the batch reaches it, is a live
 * document (the only ones gates see), and `condition` holds for it: written exactly when the fact
 * before it in the same batch took effect. One statement whatever the count
 * (the ids go as one JSON parameter).
 */
export const insertRegistrationsIf = (
  db: Database,
  registration: {
    documentUuid: string;
    datasetIds: readonly string[];
    at: number;
  },
  condition: SQL | undefined,
) =>
  db.insert(eftiRegistrations).select(
    // The fields in the table's column order, as insert-select requires.
    db
      .select({
        id: newRegistrationId.as("id"),
        datasetId: sql<string>`ids.value`.as("dataset_id"),
        documentUuid: sql<string>`${registration.documentUuid}`.as(
          "document_uuid",
        ),
        createdAt: sql<number>`${registration.at}`.as("created_at"),
        sentAt: sql<null>`NULL`.as("sent_at"),
        attempts: sql<number>`0`.as("attempts"),
        nextAttemptAt: sql<null>`NULL`.as("next_attempt_at"),
        lastStatus: sql<null>`NULL`.as("last_status"),
        parkedAt: sql<null>`NULL`.as("parked_at"),
      })
      .from(sql`json_each(${JSON.stringify(registration.datasetIds)}) AS ids`)
      .where(
        exists(
          db
            .select({ one: sql`1` })
            .from(documents)
            .where(
              and(
                sql`${documents.uuid} = ${registration.documentUuid}`,
                eq(documents.environment, GATE_ENVIRONMENT),
                condition,
              ),
            ),
        ),
      ),
  );

/** Waiting to be sent: neither sent nor parked. */
const waiting = and(
  isNull(eftiRegistrations.sentAt),
  isNull(eftiRegistrations.parkedAt),
) as SQL;

/** Waiting and due at `now` (its chain's next attempt reached). */
const dueAt = (now: number) =>
  and(
    waiting,
    or(
      isNull(eftiRegistrations.nextAttemptAt),
      lte(eftiRegistrations.nextAttemptAt, now),
    ),
  );

/**
 * Takes these documents' registrations due at `now`, in this shard, for one
 * attempt: each counted, and not due again before `until` (what its failure
 * then sets instead). A row another message took meanwhile is not taken
 * twice: one chain of attempts a row.
 */
export const takeDueRegistrations = (
  db: Database,
  documentUuids: readonly string[],
  now: number,
  until: number,
): Promise<EftiRegistrationRow[]> =>
  db
    .update(eftiRegistrations)
    .set({
      attempts: sql`${eftiRegistrations.attempts} + 1`,
      nextAttemptAt: until,
    })
    .where(
      and(
        inArray(eftiRegistrations.documentUuid, [...documentUuids]),
        dueAt(now),
      ),
    )
    .returning();

/**
 * The documents of up to `limit` registrations waiting whose next attempt
 * was due before `before` (their chain lost: a message lost or given up),
 * oldest first (a document once per registration).
 */
export const findStaleUnsentDocuments = async (
  db: Database,
  before: number,
  limit: number,
): Promise<string[]> =>
  // Bounded scan of efti_registrations: the unsent rows' partial index only,
  // the gate's backlog (a row leaves it once sent), stopped at `limit`.
  (
    await db
      .select({ documentUuid: eftiRegistrations.documentUuid })
      .from(eftiRegistrations)
      .where(
        and(
          waiting,
          lt(
            sql`coalesce(${eftiRegistrations.nextAttemptAt}, ${eftiRegistrations.createdAt})`,
            before,
          ),
        ),
      )
      .orderBy(asc(eftiRegistrations.createdAt))
      .limit(limit)
  ).map(({ documentUuid }) => documentUuid);

/**
 * Records a failed attempt of these registrations: the gate's status (null:
 * no answer), and either their next attempt's time or, refused for good,
 * parked at `at`.
 */
export const recordFailedAttempt = (
  db: Database,
  ids: readonly string[],
  failure: { status: number | null; at: number; next: number | null },
) =>
  db
    .update(eftiRegistrations)
    .set({
      lastStatus: failure.status,
      nextAttemptAt: failure.next,
      parkedAt: failure.next === null ? failure.at : null,
    })
    .where(
      and(
        inArray(eftiRegistrations.id, [...ids]),
        isNull(eftiRegistrations.sentAt),
      ),
    );

/** Which registrations the operations API lists. */
export type RegistrationState = (typeof REGISTRATION_STATES)[number];

/**
 * Up to `limit` registrations in `state` (parked; or unsent, waiting),
 * oldest first, of one dataset if given, through their partial indexes.
 */
export const listRegistrations = (
  db: Database,
  query: { state: RegistrationState; datasetId?: string; limit: number },
): Promise<EftiRegistrationRow[]> =>
  // Bounded scan of efti_registrations: the parked or unsent rows' partial
  // index only (a row leaves it once sent), stopped at `limit`.
  db
    .select()
    .from(eftiRegistrations)
    .where(
      and(
        query.state === "parked"
          ? isNotNull(eftiRegistrations.parkedAt)
          : waiting,
        query.datasetId === undefined
          ? undefined
          : eq(eftiRegistrations.datasetId, query.datasetId),
      ),
    )
    .orderBy(
      asc(
        query.state === "parked"
          ? eftiRegistrations.parkedAt
          : eftiRegistrations.createdAt,
      ),
      asc(eftiRegistrations.id),
    )
    .limit(query.limit);

/**
 * Sends again up to `limit` parked registrations (of one dataset if given):
 * unparked, due at once, their attempts counted anew. Their documents.
 */
export const unparkRegistrations = async (
  db: Database,
  query: { datasetId?: string; limit: number },
): Promise<string[]> =>
  (
    await db
      .update(eftiRegistrations)
      .set({ parkedAt: null, nextAttemptAt: null, attempts: 0 })
      .where(
        inArray(
          eftiRegistrations.id,
          db
            .select({ id: eftiRegistrations.id })
            .from(eftiRegistrations)
            .where(
              and(
                isNotNull(eftiRegistrations.parkedAt),
                query.datasetId === undefined
                  ? undefined
                  : eq(eftiRegistrations.datasetId, query.datasetId),
              ),
            )
            .limit(query.limit),
        ),
      )
      .returning({ documentUuid: eftiRegistrations.documentUuid })
  ).map(({ documentUuid }) => documentUuid);

/** Marks these registrations sent (the gate answered 2xx to a body read after them). */
export const markRegistrationsSent = async (
  db: Database,
  ids: readonly string[],
  now: number,
): Promise<void> => {
  await db
    .update(eftiRegistrations)
    .set({ sentAt: now })
    .where(
      and(
        inArray(eftiRegistrations.id, [...ids]),
        isNull(eftiRegistrations.sentAt),
      ),
    );
};
