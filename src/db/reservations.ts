import {
  and,
  eq,
  inArray,
  isNotNull,
  isNull,
  lte,
  ne,
  type SQLWrapper,
  sql,
} from "drizzle-orm";
import { oncePer } from "../once-per";
import type { Environment } from "../schemas/environment";
import type { Database } from "./client";
import { pendingPdfNote } from "./pending-pdf-objects";
import { batchPrepared } from "./prepared-batch";
import { type DocumentRow, documents, referenceReservations } from "./schema";

// The reservations of references (reference_reservations), in the shard of
// the reference's bucket: what a create, a correction and the cron read and
// write of them (docs/failures.md).

export type ReservationRow = typeof referenceReservations.$inferSelect;

type ReservationScope = { organizationId: string; environment: Environment };

const reservationOf = (
  scope: {
    organizationId: SQLWrapper | string;
    environment: SQLWrapper | Environment;
  },
  reference: SQLWrapper | string,
) =>
  and(
    eq(referenceReservations.organizationId, scope.organizationId),
    eq(referenceReservations.environment, scope.environment),
    eq(referenceReservations.reference, reference),
  );

// A create's and a retry's lookup, built and prepared once per database: two
// plain selects rather than a join, as drizzle maps a batched join's rows by
// column name, and both tables have a `uuid`-like set of names.
const reservationLookup = oncePer((db: Database) => {
  const where = reservationOf(
    {
      organizationId: sql.placeholder("organizationId"),
      environment: sql.placeholder("environment"),
    },
    sql.placeholder("reference"),
  );
  return {
    reservation: db
      .select()
      .from(referenceReservations)
      .where(where)
      .limit(1)
      .prepare(),
    document: db
      .select()
      .from(documents)
      .where(
        inArray(
          documents.uuid,
          db
            .select({ uuid: referenceReservations.documentUuid })
            .from(referenceReservations)
            .where(where),
        ),
      )
      .limit(1)
      .prepare(),
  };
});

/**
 * The reservation of a reference in an organization and environment, with
 * its document when that lives in the same shard (null otherwise: look in the
 * document's own shard). With `pendingPdf`, the note of a PDF about to be
 * put is written in the same round trip.
 */
export async function findReservation(
  db: Database,
  scope: ReservationScope,
  reference: string,
  pendingPdf?: { objectKey: string; createdAt: number },
): Promise<
  { reservation: ReservationRow; document: DocumentRow | null } | undefined
> {
  const lookup = reservationLookup(db);
  const values = {
    organizationId: scope.organizationId,
    environment: scope.environment,
    reference,
  };
  const [[reservation], [document]] = await batchPrepared(db, [
    [lookup.reservation, values],
    [lookup.document, values],
    ...(pendingPdf ? [pendingPdfNote(db, pendingPdf)] : []),
  ]);
  return reservation && { reservation, document: document ?? null };
}

/** The reservation row of a document that carries a reference. */
export const reservationFor = (row: DocumentRow): ReservationRow | null =>
  row.reference === null
    ? null
    : {
        organizationId: row.organizationId,
        environment: row.environment,
        reference: row.reference,
        documentUuid: row.uuid,
        credentialId: row.credentialId,
        createdAt: row.createdAt,
        rectifiesUuid: row.rectifiesUuid,
      };

/** The reservation exactly as read or written: a later attempt's write changes it. */
const sameReservation = (reservation: ReservationRow) =>
  and(
    reservationOf(reservation, reservation.reference),
    eq(referenceReservations.documentUuid, reservation.documentUuid),
    eq(referenceReservations.createdAt, reservation.createdAt),
  );

/**
 * Takes a reference's reservation from the shard the former shard count put
 * it in to its shard now, ahead of the rebalance and as it does: copied
 * (a copy already there stays), then deleted from `from` only while still
 * exactly as read. Afterwards the reservation, if any, is in `to`, unless a
 * write changed it in `from` meanwhile.
 */
export async function moveReservationAhead(
  from: Database,
  to: Database,
  scope: ReservationScope,
  reference: string,
): Promise<void> {
  const [found] = await from
    .select()
    .from(referenceReservations)
    .where(reservationOf(scope, reference))
    .limit(1);
  if (!found) return;
  await to.insert(referenceReservations).values(found).onConflictDoNothing();
  await from
    .delete(referenceReservations)
    .where(
      and(
        sameReservation(found),
        eq(referenceReservations.credentialId, found.credentialId),
        found.rectifiesUuid === null
          ? isNull(referenceReservations.rectifiesUuid)
          : eq(referenceReservations.rectifiesUuid, found.rectifiesUuid),
      ),
    );
}

/**
 * Reserves a correction's new reference in its own shard, before the
 * correction commits elsewhere: "reserved" when the reference was free;
 * "taken over" when an earlier attempt at correcting the same version held
 * it (the reservation now names this attempt); "held" when anything else
 * holds it.
 */
export async function reserveForCorrection(
  db: Database,
  reservation: ReservationRow & { rectifiesUuid: string },
): Promise<"reserved" | "taken over" | "held"> {
  const [inserted, updated] = await db.batch([
    db
      .insert(referenceReservations)
      .values(reservation)
      .onConflictDoNothing()
      .returning({ uuid: referenceReservations.documentUuid }),
    db
      .update(referenceReservations)
      .set({
        documentUuid: reservation.documentUuid,
        credentialId: reservation.credentialId,
        createdAt: reservation.createdAt,
      })
      .where(
        and(
          reservationOf(reservation, reservation.reference),
          eq(referenceReservations.rectifiesUuid, reservation.rectifiesUuid),
          ne(referenceReservations.documentUuid, reservation.documentUuid),
        ),
      )
      .returning({ uuid: referenceReservations.documentUuid }),
  ]);
  if (inserted.length > 0) return "reserved";
  return updated.length > 0 ? "taken over" : "held";
}

/**
 * Frees a reservation whose document never committed and never will, as it
 * was read: a later attempt that took it over keeps it.
 */
export async function freeReservation(
  db: Database,
  reservation: ReservationRow,
): Promise<void> {
  await db.delete(referenceReservations).where(sameReservation(reservation));
}

/**
 * Points a correction's reservation, as it was read, at the correction that
 * committed under its reference, and confirms it: from then on it is an
 * ordinary reservation.
 */
export async function confirmReservation(
  db: Database,
  reservation: ReservationRow,
  holderUuid: string,
): Promise<void> {
  await db
    .update(referenceReservations)
    .set({ documentUuid: holderUuid, rectifiesUuid: null })
    .where(sameReservation(reservation));
}

/** Up to `limit` corrections' reservations made before `before` and not yet confirmed. */
export const findUnconfirmedReservations = (
  db: Database,
  before: number,
  limit: number,
): Promise<ReservationRow[]> =>
  db
    .select()
    .from(referenceReservations)
    .where(
      and(
        isNotNull(referenceReservations.rectifiesUuid),
        lte(referenceReservations.createdAt, before),
      ),
    )
    .limit(limit);

/**
 * The document that holds a reservation, read in the shard of its
 * `documentUuid`: that document, or, for a correction's reservation, the
 * correction of the version it names when it carries the reference (an
 * earlier attempt's uuid may have committed). One round trip.
 */
export async function findReservationHolder(
  db: Database,
  reservation: ReservationRow,
): Promise<DocumentRow | undefined> {
  const named = db
    .select()
    .from(documents)
    .where(eq(documents.uuid, reservation.documentUuid))
    .limit(1);
  if (reservation.rectifiesUuid === null) return (await named)[0];
  const [byUuid, byCorrection] = await db.batch([
    named,
    db
      .select()
      .from(documents)
      .where(
        and(
          eq(documents.rectifiesUuid, reservation.rectifiesUuid),
          eq(documents.reference, reservation.reference),
        ),
      )
      .limit(1),
  ]);
  return byUuid[0] ?? byCorrection[0];
}
