import {
  and,
  eq,
  isNotNull,
  isNull,
  lte,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import { insertAuditEventIf } from "./audit";
import type { Database } from "./client";
import { insertDocumentEventIf } from "./event-outbox";
import { documents } from "./schema";

/** A QR access to record: when, by which request, and by when the last one written must be for a later one to be written. */
export interface QrAccess {
  at: number;
  requestId: string;
  lastWrittenBy: number;
}

/**
 * Records a QR access of a document that is not deleted, in one batch: the
 * first access always (its time stays), a later one only when the last one
 * was written by `lastWrittenBy`; with its audit event and
 * its event (first or not). The inserts read the row before the batch's
 * update, so of two accesses at once the second sees the first's and writes
 * nothing. Undefined when the document is not here or deleted; else
 * whether this access was written, and when the last one written was.
 */
export async function recordQrAccess(
  db: Database,
  uuid: string,
  access: QrAccess,
): Promise<{ recorded: boolean; lastQrAccessAt: number | null } | undefined> {
  const notDeleted = isNull(documents.deletedAt);
  const written = and(
    notDeleted,
    or(
      isNull(documents.firstQrAccessAt),
      isNull(documents.lastQrAccessAt),
      lte(documents.lastQrAccessAt, access.lastWrittenBy),
    ),
  ) as SQL;
  const accessEvent = (firstAccess: boolean) => ({
    type: "document.accessed" as const,
    documentUuid: uuid,
    occurredAt: access.at,
    firstAccess,
  });
  const [, , , recorded, found] = await db.batch([
    insertAuditEventIf(
      db,
      {
        documentUuid: uuid,
        type: "qr_accessed",
        credentialId: null,
        requestId: access.requestId,
        occurredAt: access.at,
      },
      written,
    ),
    insertDocumentEventIf(
      db,
      accessEvent(true),
      and(written, isNull(documents.firstQrAccessAt)),
    ),
    insertDocumentEventIf(
      db,
      accessEvent(false),
      and(written, isNotNull(documents.firstQrAccessAt)),
    ),
    db
      .update(documents)
      .set({
        firstQrAccessAt: sql`coalesce(${documents.firstQrAccessAt}, ${access.at})`,
        lastQrAccessAt: access.at,
      })
      .where(and(eq(documents.uuid, uuid), written))
      .returning({ uuid: documents.uuid }),
    db
      .select({ lastQrAccessAt: documents.lastQrAccessAt })
      .from(documents)
      .where(and(eq(documents.uuid, uuid), notDeleted)),
  ]);
  return found[0] && { recorded: recorded.length > 0, ...found[0] };
}
