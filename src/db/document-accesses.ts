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
import { insertEftiReadIf } from "./efti-reads";
import { insertDocumentEventIf } from "./event-outbox";
import { documents } from "./schema";

/**
 * An access to record: when, by which request, by when the last one written
 * must be for a later one to be written, and how: a QR scan, or a gate's
 * read of one of its datasets (the gate's key version).
 */
export type DocumentAccess = {
  at: number;
  requestId: string;
  lastWrittenBy: number;
} & AccessWay;

/** How a document was accessed: a QR scan, or a gate's read of one of its datasets (the gate's key version). */
export type AccessWay =
  | { via: "qr" }
  | { via: "efti_gate"; datasetId: string; gate: string };

/**
 * Records an access of a document that is not deleted, in one batch: the
 * first access always (its time stays), a later one only when the last one
 * was written by `lastWrittenBy`; with its audit event (a QR scan's, or the
 * gate's read) and its event (first or not). The inserts read the row
 * before the batch's update, so of two accesses at once the second sees the
 * first's and writes nothing. Undefined when the document is not here or
 * deleted; else whether this access was written, and when the last one
 * written was.
 */
export async function recordAccess(
  db: Database,
  uuid: string,
  access: DocumentAccess,
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
    accessedVia: access.via,
  });
  const audited = { documentUuid: uuid, requestId: access.requestId };
  const [, , , recorded, found] = await db.batch([
    access.via === "qr"
      ? insertAuditEventIf(
          db,
          {
            ...audited,
            type: "qr_accessed",
            credentialId: null,
            occurredAt: access.at,
          },
          written,
        )
      : insertEftiReadIf(
          db,
          {
            ...audited,
            type: "efti_gate_read",
            datasetId: access.datasetId,
            gate: access.gate,
            credentialId: null,
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
