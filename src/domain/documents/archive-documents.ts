import {
  deleteStaleSummaries,
  findDocumentsToArchive,
  markArchived,
} from "../../db/archive";
import { archiveCutoff } from "../windows";
import type { DocumentServices } from "./services";

// Documents a round: one read of the rows, one of their events, their R2
// puts side by side, one D1 batch.
const BATCH_SIZE = 50;
// Rounds of one run over all shards: 100 rounds are 300 D1 calls and 5,000
// R2 puts, well inside one cron invocation's 1,000 D1 queries (shared with
// the other tasks) and 10,000 subrequests. Every 5 minutes (wrangler.toml)
// that is 1.44 million documents a day, over three times the busiest day
// at national volume (bench/scale.json).
const ROUNDS_PER_RUN = 100;
// List entries a shard removes a run, in one statement.
const SUMMARY_SWEEP_SIZE = 1000;

export interface ArchiveReport {
  /** Documents whose body and audit events moved to R2. */
  documents: number;
  /** List entries removed as out of the read window. */
  summaries: number;
}

type ArchiveServices = Pick<DocumentServices, "shards" | "clock" | "archives">;

/** The rounds each shard gets in one run: the run's rounds shared over the shards. */
export const roundsPerShard = (shardCount: number): number =>
  Math.ceil(ROUNDS_PER_RUN / shardCount);

/**
 * Moves the body and audit events of documents past their read window (and
 * a margin) to R2, in bounded rounds per shard, leaving a slim row; then
 * removes the list entries out of the window. Safe to stop anywhere: an
 * archive is written before its D1 batch, and a run that finds it written
 * takes the stored one, so what D1 deletes is always in R2. The next run
 * continues.
 */
export async function archiveDocuments(
  services: ArchiveServices,
  rounds = roundsPerShard(services.shards.length),
): Promise<ArchiveReport> {
  const now = services.clock.now();
  const before = archiveCutoff(now);
  const report: ArchiveReport = { documents: 0, summaries: 0 };
  for (const shard of services.shards) {
    for (let round = 0; round < rounds; round++) {
      const due = await findDocumentsToArchive(shard, before, BATCH_SIZE);
      if (due.length === 0) break;
      const stored = await Promise.all(
        due.map((document) => services.archives.put(document)),
      );
      await markArchived(shard, stored, now);
      report.documents += due.length;
      if (due.length < BATCH_SIZE) break;
    }
    report.summaries += await deleteStaleSummaries(
      shard,
      before,
      SUMMARY_SWEEP_SIZE,
    );
  }
  return report;
}
