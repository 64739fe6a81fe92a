import { and, eq, exists, notExists, type SQL, sql } from "drizzle-orm";
import type { Database } from "./client";
import { insertDocumentEventIf } from "./event-outbox";
import { literalRow } from "./literal-row";
import { documents, eftiFollowUps } from "./schema";

/** A gate's follow-up message about one consignment of a document. */
export interface FollowUp {
  datasetId: string;
  documentUuid: string;
  shipment: number;
  message: string;
  /** SHA-256 of `message` (UTF-8), hex. */
  messageHash: string;
  gate: string;
  requestId: string;
  receivedAt: number;
}

const sameMessage = (followUp: FollowUp) =>
  and(
    eq(eftiFollowUps.datasetId, followUp.datasetId),
    eq(eftiFollowUps.messageHash, followUp.messageHash),
  );

/**
 * Keeps a follow-up message, with its event for the document's owner, in one
 * batch: the message only if this dataset has no message of the same text
 * yet, the event only if the message was written by this request. A gate's
 * retry (after a lost answer, or after a batch that failed) so leaves one
 * message and one event. Nothing in a shard that does not hold the
 * document. True when this call wrote them.
 */
export async function keepFollowUp(
  db: Database,
  followUp: FollowUp,
): Promise<boolean> {
  const writtenNow = sql`EXISTS (SELECT 1 FROM ${eftiFollowUps} WHERE ${and(
    sameMessage(followUp),
    eq(eftiFollowUps.requestId, followUp.requestId),
  )})` as SQL;
  const [inserted] = await db.batch([
    db
      .insert(eftiFollowUps)
      .select(
        db
          .select(
            literalRow(eftiFollowUps, {
              // SQLite numbers the row (AUTOINCREMENT).
              id: null as unknown as number,
              datasetId: followUp.datasetId,
              documentUuid: followUp.documentUuid,
              shipment: followUp.shipment,
              messageHash: followUp.messageHash,
              message: followUp.message,
              gate: followUp.gate,
              requestId: followUp.requestId,
              receivedAt: followUp.receivedAt,
            }),
          )
          .from(sql`(select 1)`)
          .where(
            and(
              // In the shard that holds the document (a rebalance may have
              // moved it), once per dataset and text.
              exists(
                db
                  .select({ one: sql`1` })
                  .from(documents)
                  .where(eq(documents.uuid, followUp.documentUuid)),
              ),
              notExists(
                db
                  .select({ one: sql`1` })
                  .from(eftiFollowUps)
                  .where(sameMessage(followUp)),
              ),
            ),
          ),
      )
      .returning({ id: eftiFollowUps.id }),
    insertDocumentEventIf(
      db,
      {
        type: "document.efti_follow_up",
        documentUuid: followUp.documentUuid,
        occurredAt: followUp.receivedAt,
        followUp: {
          datasetId: followUp.datasetId,
          shipment: followUp.shipment,
          message: followUp.message,
        },
      },
      writtenNow,
    ),
  ]);
  return inserted.length > 0;
}
