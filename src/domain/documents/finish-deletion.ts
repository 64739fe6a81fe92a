import type { Database } from "../../db/client";
import { deleteSummaries, findDocumentIssuers } from "../../db/documents";
import {
  deletePendingDeletionMarks,
  findStalePendingDeletionMarks,
} from "../../db/pending-deletion-marks";
import {
  inRounds,
  type QueryBudget,
  type RoundCost,
  type RoundResult,
} from "../cron-budget";
import type { Services } from "../services";
import { documentShard, homeShard } from "../shard-routing";
import { pdfObjectKey } from "./issue-document";

// A mark younger than this may have had its PDF object written a moment ago
// (the deletion's "maybe deleted"), and R2 takes one write a second per key.
export const DELETION_MARK_STALE_MS = 60 * 1000;

// A round: the marks; for each mark at most its document's read (grouped by
// shard) and its list entry's removal (grouped by home shard); the marks'
// removal.
const ROUND: RoundCost = { look: 1, fixed: 1, perRow: 2, rows: 50 };

type FinishServices = Pick<Services, "shards" | "clock" | "pdfs">;

/** `items` grouped by the shard `shardOf` each. */
function byShard<T>(
  items: readonly T[],
  shardOf: (item: T) => Database,
): Map<Database, T[]> {
  const groups = new Map<Database, T[]>();
  for (const item of items) {
    const shard = shardOf(item);
    groups.set(shard, [...(groups.get(shard) ?? []), item]);
  }
  return groups;
}

/** Takes the deleted documents `uuids` off their lists, each found in its uuid's shard. */
async function unlist(services: FinishServices, uuids: string[]) {
  const documents = byShard(uuids, (uuid) =>
    documentShard(services.shards, uuid),
  );
  const issued = (
    await Promise.all(
      [...documents].map(([shard, group]) => findDocumentIssuers(shard, group)),
    )
  ).flat();
  const lists = byShard(issued, (document) =>
    homeShard(services.shards, {
      id: document.credentialId,
      environment: document.environment,
    }),
  );
  await Promise.all(
    [...lists].map(([shard, group]) =>
      deleteSummaries(
        shard,
        group.map((document) => document.uuid),
      ),
    ),
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
  await unlist(
    services,
    marks.map((mark) => mark.documentUuid),
  );
  const written = await Promise.allSettled(
    marks.map((mark) =>
      services.pdfs.noteDeletion(
        pdfObjectKey(mark.documentUuid),
        mark.createdAt,
      ),
    ),
  );
  // A mark whose object could not be written stays for the next run.
  const finished = marks.filter(
    (_, index) => written[index]?.status === "fulfilled",
  );
  if (finished.length > 0) {
    await deletePendingDeletionMarks(
      shard,
      finished.map((mark) => mark.documentUuid),
    );
  }
  return { found: marks.length, finished: finished.length };
}

/**
 * Finishes the deletions that committed in D1, whatever their request did
 * after: each one's list entry is removed (again), its PDF object says
 * "deleted" (until then a QR link asks D1, qr-download.ts), and its mark goes.
 * A mark whose document is not in its uuid's shard is finished as far as
 * can be: the object written, the mark removed.
 */
export const finishStaleDeletions = (
  services: FinishServices,
  budget: QueryBudget,
): Promise<number> =>
  inRounds(budget, services.shards, ROUND, (shard, limit) =>
    finishRound(services, shard, limit),
  );
