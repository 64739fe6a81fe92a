import type { Database } from "../../db/client";
import { deleteSummaries, insertSummary } from "../../db/document-summaries";
import { findMarkedDocuments } from "../../db/documents";
import {
  deletePendingDeletionMarks,
  deleteUndoneDeletionMarks,
  findStalePendingDeletionMarks,
} from "../../db/pending-deletion-marks";
import {
  inRounds,
  type QueryBudget,
  type RoundCost,
  type RoundResult,
} from "../cron-budget";
import { grouped, groupedUnderEach } from "../grouped";
import type { Services } from "../services";
import {
  documentShard,
  formerShard,
  homeShard,
  shardsHolding,
  toDocument,
} from "../shard-routing";
import { isWithinReadWindow } from "../windows";
import { pdfObjectKey } from "./issue-document";

// A mark younger than this may have had its PDF object written a moment ago
// (the deletion's "maybe deleted"), and R2 takes one write a second per key.
export const DELETION_MARK_STALE_MS = 60 * 1000;

// A round: the marks; for each mark at most its document's reads (grouped by
// shard; in two shards while a rebalance runs) and its list entry's removal
// (grouped by home shard, both homes while a rebalance runs) or insert (one
// each); the removals of the marks done and undone.
const ROUND: RoundCost = { look: 1, fixed: 2, perRow: 4, rows: 50 };

type FinishServices = Pick<
  Services,
  "shards" | "shardsBefore" | "clock" | "pdfs"
>;

/** The documents `uuids` that `shardOf` holds, each read there. */
async function readMarked(
  uuids: readonly string[],
  shardOf: (uuid: string) => Database,
) {
  return (
    await Promise.all(
      [...grouped(uuids, shardOf)].map(([shard, group]) =>
        findMarkedDocuments(shard, group),
      ),
    )
  ).flat();
}

/**
 * The documents `uuids`, each read in its uuid's shard; while a rebalance
 * runs, in its former shard first, then (those not there) in its current
 * one: the mover copies before it deletes.
 */
async function markedDocuments(services: FinishServices, uuids: string[]) {
  const formerOf = (uuid: string) => formerShard(services, toDocument(uuid));
  const inFormer = await readMarked(
    uuids.filter((uuid) => formerOf(uuid) !== null),
    (uuid) => formerOf(uuid) as Database,
  );
  const found = new Set(inFormer.map((document) => document.uuid));
  const inCurrent = await readMarked(
    uuids.filter((uuid) => !found.has(uuid)),
    (uuid) => documentShard(services.shards, uuid),
  );
  return [...inFormer, ...inCurrent];
}

type MarkedDocument = Awaited<ReturnType<typeof markedDocuments>>[number];

/**
 * Puts each document back on (`deleted` false) or takes it off (true) its
 * credential's list, in its home shard (taken off, also from its former home
 * while a rebalance runs); a document past the read window is listed no more.
 */
async function relist(
  services: FinishServices,
  marked: MarkedDocument[],
  deleted: boolean,
) {
  const now = services.clock.now();
  const home = (document: MarkedDocument) => (shards: readonly Database[]) =>
    homeShard(shards, {
      id: document.credentialId,
      environment: document.environment,
    });
  const lists = deleted
    ? groupedUnderEach(marked, (document) =>
        shardsHolding(services, home(document)),
      )
    : grouped(marked, (document) => home(document)(services.shards));
  await Promise.all(
    [...lists].map(async ([shard, group]) => {
      if (deleted) {
        return deleteSummaries(
          shard,
          group.map((document) => document.uuid),
        );
      }
      for (const document of group) {
        if (isWithinReadWindow(document.createdAt, now)) {
          await insertSummary(shard, {
            uuid: document.uuid,
            credentialId: document.credentialId,
            reference: document.reference,
            createdAt: document.createdAt,
            transportDate: document.transportDate,
            rectifiesUuid: document.rectifiesUuid,
          });
        }
      }
    }),
  );
}

/** One round in `shard`: up to `limit` marks finished. */
async function finishRound(
  services: FinishServices,
  shard: Database,
  limit: number,
): Promise<RoundResult> {
  const before = services.clock.now() - DELETION_MARK_STALE_MS;
  const marks = await findStalePendingDeletionMarks(shard, before, limit);
  if (marks.length === 0) return { found: 0, finished: 0 };
  const documents = await markedDocuments(
    services,
    marks.map((mark) => mark.documentUuid),
  );
  const deleted = new Set(
    documents.filter((d) => d.deletedAt !== null).map((d) => d.uuid),
  );
  // A deletion that never took effect (its request failed or was refused
  // after its mark): the document goes back on its list, its object stays
  // as it is (at worst "maybe deleted", which only sends its QR link to D1).
  const undone = marks.filter((mark) => !deleted.has(mark.documentUuid));
  await relist(
    services,
    documents.filter((d) => d.deletedAt === null),
    false,
  );
  if (undone.length > 0) {
    await deleteUndoneDeletionMarks(
      shard,
      undone.map((mark) => mark.documentUuid),
    );
  }
  const done = marks.filter((mark) => deleted.has(mark.documentUuid));
  await relist(
    services,
    documents.filter((d) => d.deletedAt !== null),
    true,
  );
  const written = await Promise.allSettled(
    done.map((mark) =>
      services.pdfs.noteDeletion(
        pdfObjectKey(mark.documentUuid),
        mark.createdAt,
      ),
    ),
  );
  // A mark whose object could not be written stays for the next run.
  const finished = done.filter(
    (_, index) => written[index]?.status === "fulfilled",
  );
  if (finished.length > 0) {
    await deletePendingDeletionMarks(
      shard,
      finished.map((mark) => mark.documentUuid),
    );
  }
  return { found: marks.length, finished: finished.length + undone.length };
}

/**
 * Settles the deletion marks, each written by a deletion before it commits
 * (delete-document.ts), whatever its request did after: a deletion that
 * committed in D1 has its list entry removed (again), its PDF object saying
 * "deleted" (until then a QR link asks D1, qr-download.ts), and its mark
 * removed; one that did not has its document listed again and its mark
 * removed. A mark whose document is not in its uuid's shard (nor, while a
 * rebalance runs, in its former one) is removed, its object left to say at
 * most "maybe deleted".
 */
export const finishStaleDeletions = (
  services: FinishServices,
  budget: QueryBudget,
): Promise<number> =>
  inRounds(
    budget,
    services.shards,
    services.clock.now(),
    ROUND,
    (shard, limit) => finishRound(services, shard, limit),
  );
