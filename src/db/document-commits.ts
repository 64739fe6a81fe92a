import {
  and,
  count,
  eq,
  isNotNull,
  isNull,
  notExists,
  type SQL,
  sql,
} from "drizzle-orm";
import { insertAuditEventIf, noEventYet } from "./audit";
import type { Database } from "./client";
import { deletable, isDemoDocument } from "./documents";
import { insertRegistrationsIf } from "./efti-registrations";
import { insertDocumentEventIf } from "./event-outbox";
import { literalRow } from "./literal-row";
import { insertPendingDeletionMarkIf } from "./pending-deletion-marks";
import { reservationFor } from "./reservations";
import { type DocumentRow, documents, referenceReservations } from "./schema";

// The batches that commit a document's facts in its shard (docs/failures.md):
// an issue, a correction, a deletion, each with its events, audit and
// registrations, each conditional on what it must find.

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
 * marked rectified by it, the new version, both events and the
 * registrations of both versions' datasets (the original's withdrawn),
 * each written only if the mark took effect. False when it did not:
 * nothing was written. With `cap`, also only while its demo session is
 * under it. Its new reference was reserved apart (reserveForCorrection).
 */
export async function commitCorrection(
  db: Database,
  row: DocumentRow & { rectifiesUuid: string },
  by: { credentialId: string; requestId: string },
  cap?: DemoCap,
  datasetIds: { version: readonly string[]; original: readonly string[] } = {
    version: [],
    original: [],
  },
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
    ...registrations(
      db,
      row.uuid,
      datasetIds.version,
      row.createdAt,
      undefined,
    ),
    ...registrations(db, original, datasetIds.original, row.createdAt, marked),
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
