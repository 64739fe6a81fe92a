// The D1 calls of each operation, as the service makes them: every one is a
// function of src/db (the statements, their batches and their round trips
// are the service's own), given the rows of documents.ts. Which call goes to
// which shard, and in what order, follows src/domain (see year.ts).
import { insertAuditEvent } from "../../src/db/audit";
import type { Database } from "../../src/db/client";
import { findCredentialByKeyHash } from "../../src/db/credentials";
import { recordAccess } from "../../src/db/document-accesses";
import {
  commitCorrection as commitCorrectionBatch,
  commitCreatedDocument,
  markDeleted,
} from "../../src/db/document-commits";
import {
  deleteSummaries,
  insertSummary,
  listDocumentSummaries,
} from "../../src/db/document-summaries";
import {
  findOwnDocumentByUuid,
  findOwnDocumentForDeletion as findOwnDocumentMarkingDeletion,
  findQrLinkTarget,
} from "../../src/db/documents";
import {
  deletePendingPdfObject,
  insertPendingPdfObject,
} from "../../src/db/pending-pdf-objects";
import {
  findReservation,
  reservationFor,
  reserveForCorrection,
} from "../../src/db/reservations";
import type { AuditEventType, DocumentRow } from "../../src/db/schema";
import { lastWrittenBy } from "../../src/domain/documents/access-writes";
import { pdfObjectKey } from "../../src/domain/documents/issue-document";
import { summaryOf } from "../../src/domain/documents/summary";
import { randomBase62 } from "../../src/domain/random";
import { deleteWindowStart, readWindowStart } from "../../src/domain/windows";

const requestId = (): string => `req_${randomBase62(24)}`;

const referenceOf = (row: DocumentRow): string => {
  if (row.reference === null) throw new Error(`${row.uuid} has no reference`);
  return row.reference;
};

/** Every authenticated request: the credential and its organization, in the credential's shard. */
export const authenticate = (db: Database, keyHash: string) =>
  findCredentialByKeyHash(db, keyHash);

/**
 * A create with a reference, and each of its retries: the reservation and
 * its document read, the note of the PDF about to be put written, one batch
 * in the reservation's shard (create-document.ts). `planned` is the uuid the
 * request planned: the document's own on a first create.
 */
export const findReservationNotingPdf = (
  db: Database,
  row: DocumentRow,
  planned = row,
) =>
  findReservation(db, row, referenceOf(row), {
    objectKey: pdfObjectKey(planned.uuid),
    createdAt: planned.createdAt,
  });

/** A create without reference: the PDF's note before its put. */
export const notePendingPdf = (db: Database, row: DocumentRow) =>
  insertPendingPdfObject(db, pdfObjectKey(row.uuid), row.createdAt);

/** A create's batch: the document, its reservation (with a reference), "issued". */
export const commitCreate = (db: Database, row: DocumentRow) =>
  commitCreatedDocument(db, row, {
    credentialId: row.credentialId,
    requestId: requestId(),
  });

/** A correction's new reference, reserved in its own shard before the batch. */
export function reserveReference(db: Database, row: DocumentRow) {
  const reservation = reservationFor(row);
  const { rectifiesUuid } = row;
  if (!reservation || rectifiesUuid === null) {
    throw new Error(`${row.uuid} is no correction with a reference`);
  }
  return reserveForCorrection(db, { ...reservation, rectifiesUuid });
}

/** A correction's batch in the original's shard: the version, the original marked, both events. */
export function commitCorrection(db: Database, row: DocumentRow) {
  const { rectifiesUuid } = row;
  if (rectifiesUuid === null) throw new Error(`${row.uuid} is no correction`);
  return commitCorrectionBatch(
    db,
    { ...row, rectifiesUuid },
    { credentialId: row.credentialId, requestId: requestId() },
  );
}

/** After the commit: the document in its credential's list, in the home shard. */
export const listDocument = (db: Database, row: DocumentRow) =>
  insertSummary(db, summaryOf(row));

/** Once listed (in the background): the PDF's note cleared, in the document's shard. */
export const clearPendingPdf = (db: Database, row: DocumentRow) =>
  deletePendingPdfObject(db, pdfObjectKey(row.uuid));

/** A read or a download: the caller's own row by uuid. */
export const findOwnDocument = (db: Database, row: DocumentRow) =>
  findOwnDocumentByUuid(db, row.credentialId, row.uuid);

/**
 * A correction by uuid (rectify-document.ts): its original read, and the
 * note of the correction's PDF written, in one batch of the original's shard.
 */
export function findOriginalNotingPdf(db: Database, row: DocumentRow) {
  const { rectifiesUuid } = row;
  if (rectifiesUuid === null) throw new Error(`${row.uuid} is no correction`);
  return findOwnDocumentByUuid(db, row.credentialId, rectifiesUuid, {
    objectKey: pdfObjectKey(row.uuid),
    createdAt: row.createdAt,
  });
}

/** A deletion's read, with its pending mark in the same batch (delete-document.ts). */
export const findOwnDocumentForDeletion = (
  db: Database,
  row: DocumentRow,
  at: number,
) =>
  findOwnDocumentMarkingDeletion(db, row.credentialId, row.uuid, {
    at,
    createdSince: deleteWindowStart(at),
  });

/** An event that changes no state (a download, a retry), in the background. */
export const recordEvent = (
  db: Database,
  row: DocumentRow,
  type: Extract<AuditEventType, "pdf_downloaded" | "retried">,
  at: number,
) =>
  insertAuditEvent(db, {
    documentUuid: row.uuid,
    type,
    credentialId: row.credentialId,
    requestId: requestId(),
    occurredAt: at,
  });

/** A QR link: what it needs of the row, then the access recorded (qr-download.ts). */
export const findQrTarget = (db: Database, row: DocumentRow) =>
  findQrLinkTarget(db, row.uuid);

export const recordQrScan = (db: Database, row: DocumentRow, at: number) =>
  recordAccess(db, row.uuid, {
    at,
    requestId: requestId(),
    lastWrittenBy: lastWrittenBy(at),
    via: "qr",
  });

/** A deletion's batch: the row marked, its event. */
export const deleteDocument = (db: Database, row: DocumentRow, at: number) =>
  markDeleted(db, row.uuid, {
    at,
    reason: "Pedido anulado: el camión no salió.",
    credentialId: row.credentialId,
    requestId: requestId(),
  });

/** A deleted document leaves its list, in the home shard. */
export const unlistDocument = (db: Database, row: DocumentRow) =>
  deleteSummaries(db, [row.uuid]);

/** One list page (25 a page) and the total, in the caller's home shard. */
export const listPage = (
  db: Database,
  credentialId: string,
  now: number,
  page: number,
) =>
  listDocumentSummaries(
    db,
    { credentialId, createdSince: readWindowStart(now) },
    { offset: (page - 1) * 25, limit: 25 },
  );
