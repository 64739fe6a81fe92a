import {
  and,
  count,
  desc,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  ne,
  notExists,
  type SQL,
  sql,
} from "drizzle-orm";
import type { Environment } from "../schemas/environment";
import { insertAuditEventIf, noEventYet } from "./audit";
import type { Database } from "./client";
import { insertRegistrationsIf } from "./efti-registrations";
import { insertDocumentEventIf } from "./event-outbox";
import { literalRow } from "./literal-row";
import { insertPendingDeletionMarkIf } from "./pending-deletion-marks";
import { insertPendingPdfObject } from "./pending-pdf-objects";
import {
  type DocumentRow,
  documentSummaries,
  documents,
  referenceReservations,
} from "./schema";

export interface DocumentListFilter {
  credentialId: string;
  createdSince: number;
  transportDateFrom?: string | undefined;
  transportDateTo?: string | undefined;
}

export type DocumentSummaryRow = typeof documentSummaries.$inferSelect;

function listCondition(filter: DocumentListFilter): SQL | undefined {
  return and(
    eq(documentSummaries.credentialId, filter.credentialId),
    gte(documentSummaries.createdAt, filter.createdSince),
    filter.transportDateFrom
      ? gte(documentSummaries.transportDate, filter.transportDateFrom)
      : undefined,
    filter.transportDateTo
      ? lte(documentSummaries.transportDate, filter.transportDateTo)
      : undefined,
  );
}

/** The two queries of a list page: the page's rows, and the total. */
export function listQueries(
  db: Database,
  filter: DocumentListFilter,
  page: { offset: number; limit: number },
) {
  const where = listCondition(filter);
  return [
    db
      .select()
      .from(documentSummaries)
      .where(where)
      .orderBy(desc(documentSummaries.createdAt), desc(documentSummaries.uuid))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(documentSummaries).where(where),
  ] as const;
}

/** One page of a credential's listed documents and the total, read in one batch of its home shard. */
export async function listDocumentSummaries(
  db: Database,
  filter: DocumentListFilter,
  page: { offset: number; limit: number },
): Promise<{ rows: DocumentSummaryRow[]; total: number }> {
  const [rows, totals] = await db.batch(listQueries(db, filter, page));
  return { rows, total: totals[0]?.total ?? 0 };
}

/** Lists a document in its credential's home shard; a second insert changes nothing. */
export async function insertSummary(
  db: Database,
  summary: DocumentSummaryRow,
): Promise<void> {
  await db.insert(documentSummaries).values(summary).onConflictDoNothing();
}

/** Takes deleted documents off their credentials' lists, in their home shard. */
export async function deleteSummaries(
  db: Database,
  uuids: string[],
): Promise<void> {
  await db
    .delete(documentSummaries)
    .where(inArray(documentSummaries.uuid, uuids));
}

/**
 * The condition of documents_demo_credential_idx, written as the index
 * says it: SQLite uses a partial index only for a query that names its
 * condition, and a bound parameter would not.
 */
export const isDemoDocument = sql`${documents.environment} = 'demo'`;

/**
 * A credential's own document by uuid, whatever its state or age. With
 * `pendingPdf`, the note of a PDF about to be put is written in the same
 * round trip.
 */
export async function findOwnDocumentByUuid(
  db: Database,
  credentialId: string,
  uuid: string,
  pendingPdf?: { objectKey: string; createdAt: number },
): Promise<DocumentRow | undefined> {
  const own = db
    .select()
    .from(documents)
    .where(
      and(eq(documents.uuid, uuid), eq(documents.credentialId, credentialId)),
    )
    .limit(1);
  if (!pendingPdf) return (await own)[0];
  const [rows] = await db.batch([
    own,
    insertPendingPdfObject(db, pendingPdf.objectKey, pendingPdf.createdAt),
  ]);
  return rows[0];
}

/** What a QR link needs of a document, by uuid: no transport data, no metadata. */
export async function findQrLinkTarget(db: Database, uuid: string) {
  const [row] = await db
    .select({
      uuid: documents.uuid,
      environment: documents.environment,
      deletedAt: documents.deletedAt,
      expiresAt: documents.expiresAt,
      qrKeyVersion: documents.qrKeyVersion,
      createdAt: documents.createdAt,
      firstQrAccessAt: documents.firstQrAccessAt,
      lastQrAccessAt: documents.lastQrAccessAt,
    })
    .from(documents)
    .where(eq(documents.uuid, uuid))
    .limit(1);
  return row;
}

/** Whether this shard holds a document's row, whatever its state. */
export async function documentExists(
  db: Database,
  uuid: string,
): Promise<boolean> {
  const [row] = await db
    .select({ uuid: documents.uuid })
    .from(documents)
    .where(eq(documents.uuid, uuid))
    .limit(1);
  return row !== undefined;
}

/** Any document by uuid, whatever its owner, state or age. */
export const findDocumentByUuid = (
  db: Database,
  uuid: string,
): Promise<DocumentRow | undefined> =>
  db.query.documents.findFirst({ where: eq(documents.uuid, uuid) });

/**
 * What the cron needs of documents with a deletion mark, by uuid: whether
 * they are deleted, and their list entry (who issued them routes to it).
 */
export const findMarkedDocuments = (db: Database, uuids: string[]) =>
  db
    .select({
      uuid: documents.uuid,
      credentialId: documents.credentialId,
      environment: documents.environment,
      reference: documents.reference,
      createdAt: documents.createdAt,
      transportDate: documents.transportDate,
      rectifiesUuid: documents.rectifiesUuid,
      deletedAt: documents.deletedAt,
    })
    .from(documents)
    .where(inArray(documents.uuid, uuids));

/** Where a document may still be deleted: not deleted, rectified or accessed through its QR link. */
const deletable = and(
  isNull(documents.deletedAt),
  isNull(documents.rectifiedByUuid),
  isNull(documents.firstQrAccessAt),
);

/**
 * A credential's own document by uuid, read by a deletion, which in the same
 * batch writes its pending mark (the intent, which the cron settles
 * whatever the request then does) when the document may be deleted and was
 * created since `intent.createdSince`.
 */
export async function findOwnDocumentForDeletion(
  db: Database,
  credentialId: string,
  uuid: string,
  intent: { at: number; createdSince: number },
): Promise<DocumentRow | undefined> {
  const [rows] = await db.batch([
    db
      .select()
      .from(documents)
      .where(
        and(eq(documents.uuid, uuid), eq(documents.credentialId, credentialId)),
      )
      .limit(1),
    insertPendingDeletionMarkIf(
      db,
      { documentUuid: uuid, createdAt: intent.at },
      and(
        eq(documents.credentialId, credentialId),
        gte(documents.createdAt, intent.createdSince),
        deletable,
      ) as SQL,
    ),
  ]);
  return rows[0];
}

export type ReservationRow = typeof referenceReservations.$inferSelect;

type ReservationScope = { organizationId: string; environment: Environment };

const reservationOf = (scope: ReservationScope, reference: string) =>
  and(
    eq(referenceReservations.organizationId, scope.organizationId),
    eq(referenceReservations.environment, scope.environment),
    eq(referenceReservations.reference, reference),
  );

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
  // Two plain selects rather than a join: drizzle maps a batched join's
  // rows by column name, and both tables have a `uuid`-like set of names.
  const where = reservationOf(scope, reference);
  const [reservations, documentRows] = await db.batch([
    db.select().from(referenceReservations).where(where).limit(1),
    db
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
      .limit(1),
    ...(pendingPdf
      ? [insertPendingPdfObject(db, pendingPdf.objectKey, pendingPdf.createdAt)]
      : []),
  ]);
  const [reservation] = reservations;
  return reservation && { reservation, document: documentRows[0] ?? null };
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

/** The event of a version's issue, written with its row. */
const issued = (row: DocumentRow) => ({
  type: "document.issued" as const,
  documentUuid: row.uuid,
  occurredAt: row.createdAt,
});

/** At most `max` versions ever issued by a demo session: the condition of its commits. */
export interface DemoCap {
  credentialId: string;
  max: number;
}

/** True while the demo session has issued fewer versions than its cap. */
const underCap = (db: Database, cap: DemoCap) =>
  sql`(${db
    .select({ issued: count() })
    .from(documents)
    .where(
      and(eq(documents.credentialId, cap.credentialId), isDemoDocument),
    )}) < ${cap.max}`;

/**
 * The eFTI gate's registrations of a version's datasets, in its commit batch
 * (docs/efti.md "Registration with the gate"): none while no gate is
 * configured (no dataset ids), or for a demo document.
 */
const registrations = (
  db: Database,
  documentUuid: string,
  datasetIds: readonly string[],
  at: number,
  condition: SQL | undefined,
) =>
  datasetIds.length === 0
    ? []
    : [insertRegistrationsIf(db, { documentUuid, datasetIds, at }, condition)];

/**
 * Makes a created document visible in one batch of its shard: the document,
 * its reference reservation (in the same shard: the reference's bucket) and
 * its "issued" event. A reference already reserved fails the whole batch
 * with a unique violation. With `cap`, the document is written only while
 * its demo session is under it, and the reservation then goes again in the
 * same batch: false when the cap refused it. The note of its pending PDF
 * stays until it is listed (issue-document.ts).
 */
export async function commitCreatedDocument(
  db: Database,
  row: DocumentRow,
  by: { credentialId: string; requestId: string },
  cap?: DemoCap,
  datasetIds: readonly string[] = [],
): Promise<boolean> {
  const reservation = reservationFor(row);
  const document = cap
    ? db
        .insert(documents)
        .select(
          db
            .select(literalRow(documents, row))
            .from(sql`(select 1)`)
            .where(underCap(db, cap)),
        )
    : db.insert(documents).values(row);
  const [inserted] = await db.batch([
    document.returning({ uuid: documents.uuid }),
    ...(reservation
      ? [db.insert(referenceReservations).values(reservation)]
      : []),
    ...(reservation && cap
      ? [
          db
            .delete(referenceReservations)
            .where(
              and(
                eq(referenceReservations.documentUuid, row.uuid),
                notExists(
                  db
                    .select({ uuid: documents.uuid })
                    .from(documents)
                    .where(eq(documents.uuid, row.uuid)),
                ),
              ),
            ),
        ]
      : []),
    insertAuditEventIf(
      db,
      {
        ...by,
        occurredAt: row.createdAt,
        documentUuid: row.uuid,
        type: "issued",
      },
      isNotNull(documents.uuid),
    ),
    insertDocumentEventIf(db, issued(row), undefined),
    ...registrations(db, row.uuid, datasetIds, row.createdAt, undefined),
  ]);
  return inserted.length > 0;
}

/**
 * Commits a correction in one batch of its original's shard, only while the
 * original may be corrected (not deleted, not rectified): the original
 * marked rectified by it, the new version, and both events, each written
 * only if the mark took effect. False when it did not: nothing was written.
 * With `cap`, also only while its demo session is under it. Its new
 * reference was reserved apart (reserveForCorrection).
 */
export async function commitCorrection(
  db: Database,
  row: DocumentRow & { rectifiesUuid: string },
  by: { credentialId: string; requestId: string },
  cap?: DemoCap,
  datasetIds: readonly string[] = [],
): Promise<boolean> {
  const original = row.rectifiesUuid;
  const marked = sql`${documents.rectifiedByUuid} = ${row.uuid}`;
  const event = { ...by, occurredAt: row.createdAt };
  const [took] = await db.batch([
    db
      .update(documents)
      .set({ rectifiedByUuid: row.uuid })
      .where(
        and(
          eq(documents.uuid, original),
          isNull(documents.rectifiedByUuid),
          isNull(documents.deletedAt),
          cap && underCap(db, cap),
        ),
      )
      .returning({ uuid: documents.uuid }),
    db.insert(documents).select(
      db
        .select(literalRow(documents, row))
        .from(documents)
        .where(and(eq(documents.uuid, original), marked)),
    ),
    insertAuditEventIf(
      db,
      { ...event, documentUuid: row.uuid, type: "issued" },
      isNotNull(documents.uuid),
    ),
    insertAuditEventIf(
      db,
      { ...event, documentUuid: original, type: "rectified" },
      marked,
    ),
    insertDocumentEventIf(db, issued(row), undefined),
    insertDocumentEventIf(
      db,
      {
        type: "document.rectified",
        documentUuid: original,
        occurredAt: row.createdAt,
      },
      marked,
    ),
    ...registrations(db, row.uuid, datasetIds, row.createdAt, undefined),
  ]);
  return took.length > 0;
}

/**
 * Deletes logically, with its "deleted" event and the mark that its PDF
 * object does not say so yet (cleared once it does), only while the document
 * may still be deleted: not yet deleted, rectified or accessed through its QR
 * link. False when it no longer may.
 */
export async function markDeleted(
  db: Database,
  uuid: string,
  deletion: {
    at: number;
    reason: string;
    credentialId: string;
    requestId: string;
  },
  datasetIds: readonly string[] = [],
): Promise<boolean> {
  const tookEffect = sql`${documents.deletedAt} = ${deletion.at}`;
  // Another deletion of the same millisecond also finds deleted_at = at.
  const firstDeletion = and(tookEffect, noEventYet(db, uuid, "deleted")) as SQL;
  const [deleted] = await db.batch([
    db
      .update(documents)
      .set({ deletedAt: deletion.at, deleteReason: deletion.reason })
      .where(and(eq(documents.uuid, uuid), deletable))
      .returning({ uuid: documents.uuid }),
    // Before the audit event, which the condition looks for.
    insertDocumentEventIf(
      db,
      { type: "document.deleted", documentUuid: uuid, occurredAt: deletion.at },
      firstDeletion,
    ),
    ...registrations(db, uuid, datasetIds, deletion.at, firstDeletion),
    insertAuditEventIf(
      db,
      {
        documentUuid: uuid,
        type: "deleted",
        credentialId: deletion.credentialId,
        requestId: deletion.requestId,
        occurredAt: deletion.at,
      },
      firstDeletion,
    ),
    insertPendingDeletionMarkIf(
      db,
      { documentUuid: uuid, createdAt: deletion.at },
      tookEffect,
    ),
  ]);
  return deleted.length > 0;
}

/** Every version a demo session ever issued, deleted ones included. */
export async function countDemoDocuments(
  db: Database,
  credentialId: string,
): Promise<number> {
  const [row] = await db
    .select({ issued: count() })
    .from(documents)
    .where(and(eq(documents.credentialId, credentialId), isDemoDocument));
  return row?.issued ?? 0;
}

/**
 * The documents whose uuid begins with `prefix` (`tttttttt-tttt-8bbb-`:
 * created in that millisecond in that bucket), by a range of the primary
 * key: `-` is followed by `.` in every collation SQLite may use here.
 */
export const findDocumentsByUuidPrefix = (
  db: Database,
  prefix: string,
): Promise<DocumentRow[]> =>
  db
    .select()
    .from(documents)
    .where(
      and(
        gte(documents.uuid, prefix),
        lt(documents.uuid, `${prefix.slice(0, -1)}.`),
      ),
    );
