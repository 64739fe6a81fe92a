import {
  and,
  count,
  eq,
  gte,
  inArray,
  isNull,
  lt,
  type SQL,
  sql,
} from "drizzle-orm";
import { oncePer } from "../once-per";
import type { Database } from "./client";
import { insertPendingDeletionMarkIf } from "./pending-deletion-marks";
import { pendingPdfNote } from "./pending-pdf-objects";
import { batchPrepared } from "./prepared-batch";
import { type DocumentRow, documents } from "./schema";

// Reads of documents in their shard, by uuid, owner or state.

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
  const values = { uuid, credentialId };
  if (!pendingPdf) return (await ownDocument(db).all(values))[0];
  const [[row]] = await batchPrepared(db, [
    [ownDocument(db), values],
    pendingPdfNote(db, pendingPdf),
  ]);
  return row;
}

// Built and prepared once per database, run with each request's values:
// building a query costs drizzle more than a read's own work (bench/README.md).
const ownDocument = oncePer((db: Database) =>
  db
    .select()
    .from(documents)
    .where(
      and(
        eq(documents.uuid, sql.placeholder("uuid")),
        eq(documents.credentialId, sql.placeholder("credentialId")),
      ),
    )
    .limit(1)
    .prepare(),
);

/** What a QR link needs of a document, by uuid: no transport data, no metadata. */
export async function findQrLinkTarget(db: Database, uuid: string) {
  const [row] = await qrLinkTarget(db).all({ uuid });
  return row;
}

const qrLinkTarget = oncePer((db: Database) =>
  db
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
    .where(eq(documents.uuid, sql.placeholder("uuid")))
    .limit(1)
    .prepare(),
);

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
export const deletable = and(
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
