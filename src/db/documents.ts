import {
  and,
  count,
  desc,
  eq,
  gte,
  inArray,
  isNull,
  lte,
  type SQL,
  sql,
} from "drizzle-orm";
import { insertAuditEvent, insertAuditEventIf } from "./audit";
import type { Database } from "./client";
import { insertPendingDeletionMarkIf } from "./pending-deletion-marks";
import { insertPendingPdfObject } from "./pending-pdf-objects";
import {
  type DocumentRow,
  documentSummaries,
  documents,
  type Environment,
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

/** A credential's own document by uuid, whatever its state or age. */
export const findOwnDocumentByUuid = (
  db: Database,
  credentialId: string,
  uuid: string,
): Promise<DocumentRow | undefined> =>
  db.query.documents.findFirst({
    where: and(
      eq(documents.uuid, uuid),
      eq(documents.credentialId, credentialId),
    ),
  });

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
    })
    .from(documents)
    .where(eq(documents.uuid, uuid))
    .limit(1);
  return row;
}

/** Any document by uuid, whatever its owner, state or age. */
export const findDocumentByUuid = (
  db: Database,
  uuid: string,
): Promise<DocumentRow | undefined> =>
  db.query.documents.findFirst({ where: eq(documents.uuid, uuid) });

/** Who issued each of these documents (what routes to their lists), by uuid. */
export const findDocumentIssuers = (db: Database, uuids: string[]) =>
  db
    .select({
      uuid: documents.uuid,
      credentialId: documents.credentialId,
      environment: documents.environment,
    })
    .from(documents)
    .where(inArray(documents.uuid, uuids));

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
      };

/** Reserves a reference apart from its document's batch (a correction's, in another shard). */
export async function insertReservation(
  db: Database,
  reservation: ReservationRow,
): Promise<void> {
  await db.insert(referenceReservations).values(reservation);
}

/** Frees a reservation made for a document that was never committed. */
export async function deleteReservation(
  db: Database,
  reservation: ReservationRow,
): Promise<void> {
  await db
    .delete(referenceReservations)
    .where(
      and(
        reservationOf(reservation, reservation.reference),
        eq(referenceReservations.documentUuid, reservation.documentUuid),
      ),
    );
}

/** Links a version to its correction; matches nothing once it is rectified. */
const markRectified = (db: Database, uuid: string, correctionUuid: string) =>
  db
    .update(documents)
    .set({ rectifiedByUuid: correctionUuid })
    .where(and(eq(documents.uuid, uuid), isNull(documents.rectifiedByUuid)));

/**
 * Makes an issued version visible in one batch of its shard: the document,
 * its reference reservation when `reserved` (then in the same shard), its
 * "issued" event, and the version it corrects marked "rectified". The note
 * of its pending PDF stays until it is listed (issue-document.ts).
 */
export async function commitIssuedDocument(
  db: Database,
  row: DocumentRow,
  options: {
    reserved: boolean;
    rectifiesUuid: string | null;
    by: { credentialId: string; requestId: string };
  },
): Promise<void> {
  const event = { ...options.by, occurredAt: row.createdAt };
  const reservation = options.reserved ? reservationFor(row) : null;
  const { rectifiesUuid } = options;
  await db.batch([
    db.insert(documents).values(row),
    ...(reservation
      ? [db.insert(referenceReservations).values(reservation)]
      : []),
    insertAuditEvent(db, { ...event, documentUuid: row.uuid, type: "issued" }),
    ...(rectifiesUuid
      ? [
          markRectified(db, rectifiesUuid, row.uuid),
          insertAuditEvent(db, {
            ...event,
            documentUuid: rectifiesUuid,
            type: "rectified",
          }),
        ]
      : []),
  ]);
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
): Promise<boolean> {
  const tookEffect = sql`${documents.deletedAt} = ${deletion.at}`;
  const [deleted] = await db.batch([
    db
      .update(documents)
      .set({ deletedAt: deletion.at, deleteReason: deletion.reason })
      .where(
        and(
          eq(documents.uuid, uuid),
          isNull(documents.deletedAt),
          isNull(documents.rectifiedByUuid),
          isNull(documents.firstQrAccessAt),
        ),
      )
      .returning({ uuid: documents.uuid }),
    insertAuditEventIf(
      db,
      {
        documentUuid: uuid,
        type: "deleted",
        credentialId: deletion.credentialId,
        requestId: deletion.requestId,
        occurredAt: deletion.at,
      },
      tookEffect,
    ),
    insertPendingDeletionMarkIf(
      db,
      { documentUuid: uuid, createdAt: deletion.at },
      tookEffect,
    ),
  ]);
  return deleted.length > 0;
}

/**
 * Records a QR access, with its event, on a document that is not deleted;
 * the first access time stays. False when the document is deleted.
 */
export async function recordQrAccess(
  db: Database,
  uuid: string,
  access: { at: number; requestId: string },
): Promise<boolean> {
  const [accessed] = await db.batch([
    db
      .update(documents)
      .set({
        firstQrAccessAt: sql`coalesce(${documents.firstQrAccessAt}, ${access.at})`,
      })
      .where(and(eq(documents.uuid, uuid), isNull(documents.deletedAt)))
      .returning({ uuid: documents.uuid }),
    insertAuditEventIf(
      db,
      {
        documentUuid: uuid,
        type: "qr_accessed",
        credentialId: null,
        requestId: access.requestId,
        occurredAt: access.at,
      },
      sql`${documents.deletedAt} IS NULL`,
    ),
  ]);
  return accessed.length > 0;
}

/** Every version a credential ever issued, deleted ones included. */
export async function countDocumentsOfCredential(
  db: Database,
  credentialId: string,
): Promise<number> {
  const [row] = await db
    .select({ issued: count() })
    .from(documents)
    .where(eq(documents.credentialId, credentialId));
  return row?.issued ?? 0;
}
