import { and, eq, exists, gt, notExists, or, type SQL, sql } from "drizzle-orm";
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
  /** The gate's own id of the request, or null when it sent none. */
  gateRequestId: string | null;
  receivedAt: number;
}

/**
 * A message of the same text about the same dataset that makes this one a
 * retry: received since `retriedSince`, or with the same gate request id.
 */
const retried = (followUp: FollowUp, retriedSince: number) =>
  and(
    eq(eftiFollowUps.datasetId, followUp.datasetId),
    eq(eftiFollowUps.messageHash, followUp.messageHash),
    or(
      gt(eftiFollowUps.receivedAt, retriedSince),
      followUp.gateRequestId === null
        ? undefined
        : eq(eftiFollowUps.gateRequestId, followUp.gateRequestId),
    ),
  );

/**
 * Keeps a follow-up message, with its event for the document's owner, in one
 * batch: the message only if it is no retry of one kept (the same text about
 * the same dataset, received after `retriedSince` or with the same gate
 * request id), the event only if the message was written by this request. A
 * gate's retry (after a lost answer, or after a batch that failed) so leaves
 * one message and one event, however its attempts race. Nothing in a shard
 * that does not hold the document. True when this call wrote them.
 */
export async function keepFollowUp(
  db: Database,
  followUp: FollowUp,
  retriedSince: number,
): Promise<boolean> {
  const writtenNow = sql`EXISTS (SELECT 1 FROM ${eftiFollowUps} WHERE ${and(
    eq(eftiFollowUps.datasetId, followUp.datasetId),
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
              gateRequestId: followUp.gateRequestId,
              receivedAt: followUp.receivedAt,
            }),
          )
          .from(sql`(select 1)`)
          .where(
            and(
              // In the shard that holds the document (a rebalance may have
              // moved it), once per retry.
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
                  .where(retried(followUp, retriedSince)),
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
