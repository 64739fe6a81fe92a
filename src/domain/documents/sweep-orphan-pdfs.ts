import type { Database } from "../../db/client";
import { insertSummary } from "../../db/document-summaries";
import {
  deletePendingPdfObjects,
  findStalePendingPdfObjects,
} from "../../db/pending-pdf-objects";
import {
  inRounds,
  type QueryBudget,
  type RoundCost,
  type RoundResult,
} from "../cron-budget";
import type { Services } from "../services";
import { homeShard } from "../shard-routing";
import { isWithinReadWindow } from "../windows";
import { findDocument } from "./addressing";
import { ORPHAN_AGE_MS } from "./attempts";
import { uuidOfObjectKey } from "./issue-document";
import { summaryOf } from "./summary";

// A round: the notes; for each note at most its document's read (in two
// shards while a rebalance runs) and its listing; the notes' removal.
const ROUND: RoundCost = { look: 1, fixed: 1, perRow: 3, rows: 50 };

type SweepServices = Pick<
  Services,
  "shards" | "shardsBefore" | "clock" | "pdfs"
>;

/**
 * Finishes an issue whose Worker died: a committed document is listed (if
 * still visible); a PDF whose document never committed is removed. The
 * document is looked for in its uuid's shard, wherever the note lingers.
 */
async function settle(
  services: SweepServices,
  objectKey: string,
): Promise<void> {
  // From the uuid's shard (or its former one while a rebalance runs): a
  // note may outlive a move of its document.
  const document = await findDocument(services, uuidOfObjectKey(objectKey));
  if (!document) return services.pdfs.delete(objectKey);
  if (
    document.deletedAt === null &&
    isWithinReadWindow(document.createdAt, services.clock.now())
  ) {
    const credential = {
      id: document.credentialId,
      environment: document.environment,
    };
    await insertSummary(
      homeShard(services.shards, credential),
      summaryOf(document),
    );
  }
}

/** One round in `shard`: up to `limit` notes settled. */
async function sweepRound(
  services: SweepServices,
  shard: Database,
  limit: number,
): Promise<RoundResult> {
  const before = services.clock.now() - ORPHAN_AGE_MS;
  const stale = await findStalePendingPdfObjects(shard, before, limit);
  if (stale.length === 0) return { found: 0, finished: 0 };
  const keys = stale.map((row) => row.objectKey);
  for (const key of keys) await settle(services, key);
  await deletePendingPdfObjects(shard, keys);
  return { found: keys.length, finished: keys.length };
}

/**
 * Settles the pending notes of issues that never finished, in rounds over
 * the shards while `budget` lasts: each note goes once its PDF is removed or
 * its document listed.
 */
export const sweepOrphanPdfs = (
  services: SweepServices,
  budget: QueryBudget,
): Promise<number> =>
  inRounds(
    budget,
    services.shards,
    services.clock.now(),
    ROUND,
    (shard, limit) => sweepRound(services, shard, limit),
  );
