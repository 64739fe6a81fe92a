import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { Database } from "./client";
import { documents, type EftiReadType, eftiReads } from "./schema";

/** A read of a document's eFTI data: by a gate (its key version) or by its owner's credential. */
export interface EftiRead {
  documentUuid: string;
  type: EftiReadType;
  datasetId: string | null;
  gate: string | null;
  credentialId: string | null;
  requestId: string;
  occurredAt: number;
}

/**
 * The insert of an eFTI read beside its document, taking effect only if
 * `condition` holds for the document when the batch reaches it (and the
 * document is in this shard).
 */
export const insertEftiReadIf = (
  db: Database,
  read: EftiRead,
  condition?: SQL,
) =>
  db.insert(eftiReads).select(
    // The fields in the table's column order, as insert-select requires.
    db
      .select({
        id: sql<number>`NULL`.as("id"),
        documentUuid: documents.uuid,
        type: sql<EftiReadType>`${read.type}`.as("type"),
        datasetId: sql<string | null>`${read.datasetId}`.as("dataset_id"),
        gate: sql<string | null>`${read.gate}`.as("gate"),
        credentialId: sql<string | null>`${read.credentialId}`.as(
          "credential_id",
        ),
        requestId: sql<string>`${read.requestId}`.as("request_id"),
        occurredAt: sql<number>`${read.occurredAt}`.as("occurred_at"),
      })
      .from(documents)
      .where(and(eq(documents.uuid, read.documentUuid), condition)),
  );

/** Records an eFTI read of a document in this shard: whether it is here. */
export const recordEftiRead = async (
  db: Database,
  read: EftiRead,
): Promise<boolean> =>
  (await insertEftiReadIf(db, read).returning({ id: eftiReads.id })).length > 0;

/** A document's eFTI reads, in the order they were written. */
export const eftiReadsOfDocument = (db: Database, uuid: string) =>
  db
    .select({
      id: eftiReads.id,
      type: eftiReads.type,
      datasetId: eftiReads.datasetId,
      gate: eftiReads.gate,
      credentialId: eftiReads.credentialId,
      requestId: eftiReads.requestId,
      occurredAt: eftiReads.occurredAt,
    })
    .from(eftiReads)
    .where(eq(eftiReads.documentUuid, uuid))
    .orderBy(asc(eftiReads.id));
