import { findDocumentsToArchive, markArchived } from "../../db/archive";
import type { Database } from "../../db/client";
import { deleteRowsBefore } from "../../db/old-rows";
import {
  inRounds,
  inTurn,
  type QueryBudget,
  type RoundCost,
  type RoundResult,
} from "../cron-budget";
import type { Services } from "../services";
import { archiveCutoff } from "../windows";

// A round: the documents due, their events, one batch of two statements;
// their R2 puts side by side (50 a round: the archiver's share of the cron's
// queries, cron-budget.ts, keeps it far inside an invocation's 10,000
// subrequests). Every 5 minutes (wrangler.toml) that share archives over
// 1.4 million documents a day, three times the busiest day at national
// volume (bench/scale.json).
const ROUND: RoundCost = { look: 1, fixed: 3, perRow: 0, rows: 50 };
// List entries a shard removes a run, in one statement.
const SUMMARY_SWEEP_SIZE = 1000;

export interface ArchiveReport {
  /** Documents whose body and audit events moved to R2. */
  documents: number;
  /** List entries removed as out of the read window. */
  summaries: number;
}

type ArchiveServices = Pick<Services, "shards" | "clock" | "archives">;

/** One round in `shard`: up to `limit` documents archived. */
async function archiveRound(
  services: ArchiveServices,
  shard: Database,
  limit: number,
): Promise<RoundResult> {
  const now = services.clock.now();
  const due = await findDocumentsToArchive(shard, archiveCutoff(now), limit);
  if (due.length === 0) return { found: 0, finished: 0 };
  const stored = await Promise.all(
    due.map((document) => services.archives.put(document)),
  );
  await markArchived(shard, stored, now);
  return { found: due.length, finished: due.length };
}

/**
 * Removes the list entries out of the window, one statement a shard, then
 * moves the body and audit events of documents past their read window (and
 * a margin) to R2 in rounds over the shards while `budget` lasts, leaving a
 * slim row. Safe to stop anywhere: an archive is written before its D1
 * batch, and a run that finds it written takes the stored one, so what D1
 * deletes is always in R2. The next run continues.
 */
export async function archiveDocuments(
  services: ArchiveServices,
  budget: QueryBudget,
): Promise<ArchiveReport> {
  const now = services.clock.now();
  const before = archiveCutoff(now);
  let summaries = 0;
  for (const shard of inTurn(services.shards, now)) {
    if (!budget.take(1)) break;
    summaries += await deleteRowsBefore(
      shard,
      "document_summaries",
      before,
      SUMMARY_SWEEP_SIZE,
    );
  }
  const documents = await inRounds(
    budget,
    services.shards,
    now,
    ROUND,
    (shard, limit) => archiveRound(services, shard, limit),
  );
  return { documents, summaries };
}
