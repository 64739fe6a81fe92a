// The statements of issue 15's design, built by drizzle from the real schema:
// what a create, a correction, a deletion, a download, a QR scan, a list and
// the archiver run in D1. The service's own src/db is being moved onto the
// shards; these follow docs/scale.md's routing and the schema of migration
// 0004, so that their rows and their cost are the ones the shards will see.
import {
  and,
  count,
  desc,
  eq,
  getTableColumns,
  gte,
  inArray,
  isNull,
  lt,
  sql as raw,
} from "drizzle-orm";
import {
  auditEvents,
  credentials,
  type DocumentRow,
  documentSummaries,
  documents,
  organizations,
  pendingDeletionMarks,
  pendingPdfObjects,
  referenceReservations,
} from "../../src/db/schema";
import type { CreateRows } from "./documents";
import { type Built, built, sql } from "./shard-database";

const pdfObjectKey = (uuid: string): string => `documents/${uuid}.pdf`;

/** Every authenticated request: the credential by its key's hash, in the directory. */
export const authenticate = (keyHash: string): Built =>
  built(
    sql
      .select({ credential: credentials, locale: organizations.documentLocale })
      .from(credentials)
      .innerJoin(
        organizations,
        eq(organizations.id, credentials.organizationId),
      )
      .where(eq(credentials.keyHash, keyHash))
      .limit(1),
  );

/** A create's or a correction's reference: the document it is reserved for. */
export const reservationLookup = (
  reservation: CreateRows["reservation"],
): Built =>
  built(
    sql
      .select({ uuid: referenceReservations.documentUuid, document: documents })
      .from(referenceReservations)
      .leftJoin(
        documents,
        eq(documents.uuid, referenceReservations.documentUuid),
      )
      .where(
        and(
          eq(referenceReservations.organizationId, reservation.organizationId),
          eq(referenceReservations.environment, reservation.environment),
          eq(referenceReservations.reference, reservation.reference),
        ),
      )
      .limit(1),
  );

/** Before the PDF is put in R2: the note the orphan sweep reads. */
export const pendingPdfNote = (uuid: string, at: number): Built =>
  built(
    sql
      .insert(pendingPdfObjects)
      .values({ objectKey: pdfObjectKey(uuid), createdAt: at }),
  );

/** One create's batch in its document's shard: row, reservation, "issued", note cleared. */
export const commitCreate = (rows: CreateRows): Built[] => [
  built(
    sql
      .delete(pendingPdfObjects)
      .where(eq(pendingPdfObjects.objectKey, pdfObjectKey(rows.document.uuid))),
  ),
  built(sql.insert(documents).values(rows.document)),
  built(sql.insert(referenceReservations).values(rows.reservation)),
  built(sql.insert(auditEvents).values(rows.events[0])),
];

/** The correction's new reference, reserved first in the reference's shard. */
export const reserveReference = (rows: CreateRows): Built =>
  built(sql.insert(referenceReservations).values(rows.reservation));

/** A correction's batch in the original's shard: new version, original marked, both events. */
export const commitCorrection = (
  rows: CreateRows,
  originalUuid: string,
): Built[] => [
  built(
    sql
      .delete(pendingPdfObjects)
      .where(eq(pendingPdfObjects.objectKey, pdfObjectKey(rows.document.uuid))),
  ),
  built(
    sql
      .insert(documents)
      .values({ ...rows.document, rectifiesUuid: originalUuid }),
  ),
  built(
    sql
      .update(documents)
      .set({ rectifiedByUuid: rows.document.uuid })
      .where(
        and(
          eq(documents.uuid, originalUuid),
          isNull(documents.rectifiedByUuid),
        ),
      ),
  ),
  built(
    sql
      .insert(auditEvents)
      .values([
        rows.events[0],
        { ...rows.events[0], documentUuid: originalUuid, type: "rectified" },
      ]),
  ),
];

/** After the document commits: its line in the credential's list, in the home shard. */
export const insertSummary = (rows: CreateRows): Built =>
  built(sql.insert(documentSummaries).values(rows.summary));

/** A read, a download or a correction's original: the whole row, the owner's only. */
export const readDocument = (uuid: string, credentialId: string): Built =>
  built(
    sql
      .select()
      .from(documents)
      .where(
        and(eq(documents.uuid, uuid), eq(documents.credentialId, credentialId)),
      )
      .limit(1),
  );

/** The audit event of a download. */
export const recordDownload = (event: CreateRows["events"][number]): Built =>
  built(sql.insert(auditEvents).values({ ...event, type: "pdf_downloaded" }));

/** A QR scan within the deletion window: what the link needs of the row. */
export const qrLookup = (uuid: string): Built =>
  built(
    sql
      .select({
        uuid: documents.uuid,
        environment: documents.environment,
        deletedAt: documents.deletedAt,
        expiresAt: documents.expiresAt,
        qrKeyVersion: documents.qrKeyVersion,
      })
      .from(documents)
      .where(eq(documents.uuid, uuid))
      .limit(1),
  );

/** The event of `type` on `uuid`, written only if the document is not deleted. */
const eventIfNotDeleted = (
  uuid: string,
  type: "qr_accessed" | "deleted",
  credentialId: string | null,
  at: number,
  condition = isNull(documents.deletedAt),
): Built =>
  built(
    sql.insert(auditEvents).select(
      sql
        .select({
          id: raw<number>`NULL`.as("id"),
          documentUuid: documents.uuid,
          type: raw<string>`${type}`.as("type"),
          credentialId: raw<string | null>`${credentialId}`.as("credential_id"),
          requestId: raw<string>`${`req_${uuid.slice(-24)}`}`.as("request_id"),
          occurredAt: raw<number>`${at}`.as("occurred_at"),
        })
        .from(documents)
        .where(and(eq(documents.uuid, uuid), condition)),
    ),
  );

/** A QR access recorded: first access kept, its event, unless deleted. */
export const recordQrAccess = (uuid: string, at: number): Built[] => [
  built(
    sql
      .update(documents)
      .set({
        firstQrAccessAt: raw`coalesce(${documents.firstQrAccessAt}, ${at})`,
      })
      .where(and(eq(documents.uuid, uuid), isNull(documents.deletedAt))),
  ),
  eventIfNotDeleted(uuid, "qr_accessed", null, at),
];

/** A deletion: the row marked, its event, and the note that R2's metadata must follow. */
export const markDeleted = (
  uuid: string,
  credentialId: string,
  at: number,
): Built[] => [
  built(
    sql
      .update(documents)
      .set({
        deletedAt: at,
        deleteReason: "Pedido anulado: el camión no salió.",
      })
      .where(
        and(
          eq(documents.uuid, uuid),
          isNull(documents.deletedAt),
          isNull(documents.rectifiedByUuid),
          isNull(documents.firstQrAccessAt),
        ),
      ),
  ),
  eventIfNotDeleted(
    uuid,
    "deleted",
    credentialId,
    at,
    eq(documents.deletedAt, at),
  ),
  built(
    sql
      .insert(pendingDeletionMarks)
      .values({ documentUuid: uuid, createdAt: at }),
  ),
];

/** Once the PDF's R2 metadata says deleted. */
export const clearDeletionMark = (uuid: string): Built =>
  built(
    sql
      .delete(pendingDeletionMarks)
      .where(eq(pendingDeletionMarks.documentUuid, uuid)),
  );

/** A deleted document leaves its credential's list. */
export const deleteSummary = (uuid: string): Built =>
  built(sql.delete(documentSummaries).where(eq(documentSummaries.uuid, uuid)));

/** One list page and the total, in the credential's home shard. */
export function listPage(
  credentialId: string,
  since: number,
  page: { offset: number; limit: number },
): Built[] {
  const where = and(
    eq(documentSummaries.credentialId, credentialId),
    gte(documentSummaries.createdAt, since),
  );
  return [
    built(
      sql
        .select({
          uuid: documentSummaries.uuid,
          reference: documentSummaries.reference,
          createdAt: documentSummaries.createdAt,
          transportDate: documentSummaries.transportDate,
          rectifiesUuid: documentSummaries.rectifiesUuid,
        })
        .from(documentSummaries)
        .where(where)
        .orderBy(
          desc(documentSummaries.createdAt),
          desc(documentSummaries.uuid),
        )
        .limit(page.limit)
        .offset(page.offset),
    ),
    built(sql.select({ total: count() }).from(documentSummaries).where(where)),
  ];
}

/** The uuids of the archiver's next bounded batch: the oldest rows past the hot window. */
const hotBatch = (before: number, limit: number) =>
  sql
    .select({ uuid: documents.uuid })
    .from(documents)
    .where(and(isNull(documents.archivedAt), lt(documents.createdAt, before)))
    .orderBy(documents.createdAt)
    .limit(limit);

export const hotBatchUuids = (before: number, limit: number): Built =>
  built(hotBatch(before, limit));

/** The archiver's read: that batch's rows and their events, for the archive objects. */
export const archiveSelect = (before: number, limit: number): Built[] => [
  built(
    sql
      .select()
      .from(documents)
      .where(inArray(documents.uuid, hotBatch(before, limit))),
  ),
  built(
    sql
      .select()
      .from(auditEvents)
      .where(inArray(auditEvents.documentUuid, hotBatch(before, limit))),
  ),
];

/** The archiver's write, once the batch's archive objects are in R2: slim rows, events gone. */
export const archiveCommit = (uuids: readonly string[], at: number): Built[] =>
  uuids.flatMap((uuid) => [
    built(
      sql
        .update(documents)
        .set({ data: null, metadata: null, archivedAt: at })
        .where(and(eq(documents.uuid, uuid), isNull(documents.archivedAt))),
    ),
    built(sql.delete(auditEvents).where(eq(auditEvents.documentUuid, uuid))),
  ]);

/** A row as SQLite returns it (column names), in the schema's shape. */
export function documentFromColumns(row: Record<string, unknown>): DocumentRow {
  return Object.fromEntries(
    Object.entries(getTableColumns(documents)).map(([key, column]) => [
      key,
      row[column.name],
    ]),
  ) as DocumentRow;
}

/**
 * The same write with each row deleted and inserted again slim: a delete
 * lets SQLite merge the emptied page with its neighbours, which an update
 * that shrinks a row never does, and the slim row is appended, packed.
 */
export const archiveCommitByReinsert = (
  rows: readonly DocumentRow[],
  at: number,
): Built[] =>
  rows.flatMap((row) => [
    built(sql.delete(documents).where(eq(documents.uuid, row.uuid))),
    built(
      sql
        .insert(documents)
        .values({ ...row, data: null, metadata: null, archivedAt: at }),
    ),
    built(
      sql.delete(auditEvents).where(eq(auditEvents.documentUuid, row.uuid)),
    ),
  ]);

/** The home shard's purge of summaries past the window, a bounded batch at a time. */
export const purgeSummaries = (before: number, limit: number): Built =>
  built(
    sql
      .delete(documentSummaries)
      .where(
        inArray(
          documentSummaries.uuid,
          sql
            .select({ uuid: documentSummaries.uuid })
            .from(documentSummaries)
            .where(lt(documentSummaries.createdAt, before))
            .limit(limit),
        ),
      ),
  );
