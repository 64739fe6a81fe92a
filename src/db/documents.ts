import {
  and,
  count,
  desc,
  eq,
  gte,
  isNull,
  lte,
  type SQL,
  sql,
} from "drizzle-orm";
import { insertAuditEvent, insertAuditEventIf } from "./audit";
import type { Database } from "./client";
import { deletePendingPdfObject } from "./pending-pdf-objects";
import {
  type DocumentRow,
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

export interface DocumentSummaryRow {
  uuid: string;
  reference: string | null;
  createdAt: number;
  transportDate: string;
  rectifiesUuid: string | null;
}

function listCondition(filter: DocumentListFilter): SQL | undefined {
  return and(
    eq(documents.credentialId, filter.credentialId),
    isNull(documents.deletedAt),
    gte(documents.createdAt, filter.createdSince),
    filter.transportDateFrom
      ? gte(documents.transportDate, filter.transportDateFrom)
      : undefined,
    filter.transportDateTo
      ? lte(documents.transportDate, filter.transportDateTo)
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
      .select({
        uuid: documents.uuid,
        reference: documents.reference,
        createdAt: documents.createdAt,
        transportDate: documents.transportDate,
        rectifiesUuid: documents.rectifiesUuid,
      })
      .from(documents)
      .where(where)
      .orderBy(desc(documents.createdAt), desc(documents.uuid))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(documents).where(where),
  ] as const;
}

/** One page of a credential's visible documents and the total, read in one batch. */
export async function listDocumentSummaries(
  db: Database,
  filter: DocumentListFilter,
  page: { offset: number; limit: number },
): Promise<{ rows: DocumentSummaryRow[]; total: number }> {
  const [rows, totals] = await db.batch(listQueries(db, filter, page));
  return { rows, total: totals[0]?.total ?? 0 };
}

type NewDocumentRow = typeof documents.$inferInsert;

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
      pdfObjectKey: documents.pdfObjectKey,
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

/** The document a reference is reserved for in an organization and environment. */
export async function findDocumentByReference(
  db: Database,
  scope: { organizationId: string; environment: Environment },
  reference: string,
): Promise<DocumentRow | undefined> {
  const [row] = await db
    .select({ document: documents })
    .from(referenceReservations)
    .innerJoin(
      documents,
      eq(documents.uuid, referenceReservations.documentUuid),
    )
    .where(
      and(
        eq(referenceReservations.organizationId, scope.organizationId),
        eq(referenceReservations.environment, scope.environment),
        eq(referenceReservations.reference, reference),
      ),
    )
    .limit(1);
  return row?.document;
}

/** The statements that make a new document visible, to run in one batch. */
function insertDocumentStatements(db: Database, row: NewDocumentRow) {
  const statements = [db.insert(documents).values(row)] as const;
  if (row.reference === null || row.reference === undefined) return statements;
  return [
    ...statements,
    db.insert(referenceReservations).values({
      organizationId: row.organizationId,
      environment: row.environment,
      reference: row.reference,
      documentUuid: row.uuid,
      credentialId: row.credentialId,
      createdAt: row.createdAt,
    }),
  ] as const;
}

/** Links a version to its correction; matches nothing once it is rectified. */
const markRectified = (db: Database, uuid: string, correctionUuid: string) =>
  db
    .update(documents)
    .set({ rectifiedByUuid: correctionUuid })
    .where(and(eq(documents.uuid, uuid), isNull(documents.rectifiedByUuid)));

/**
 * Makes an issued version visible in one batch: the document, its reference
 * reservation and its "issued" event, the version it corrects marked
 * "rectified", and the note of its pending PDF cleared.
 */
export async function commitIssuedDocument(
  db: Database,
  row: DocumentRow,
  rectifiesUuid: string | null,
  by: { credentialId: string; requestId: string },
): Promise<void> {
  const event = { ...by, occurredAt: row.createdAt };
  await db.batch([
    deletePendingPdfObject(db, row.pdfObjectKey),
    ...insertDocumentStatements(db, row),
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
 * Deletes logically, with its "deleted" event, only while the document may
 * still be deleted: not yet deleted, rectified or accessed through its QR
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
      sql`${documents.deletedAt} = ${deletion.at}`,
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
