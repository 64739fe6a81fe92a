import { insertSummary } from "../../db/documents";
import {
  deletePendingPdfObjects,
  findStalePendingPdfObjects,
} from "../../db/pending-pdf-objects";
import { homeShard } from "../shard-routing";
import { isWithinReadWindow } from "../windows";
import { findDocument } from "./addressing";
import { ORPHAN_AGE_MS } from "./attempts";
import { uuidOfObjectKey } from "./issue-document";
import type { DocumentServices } from "./services";
import { summaryOf } from "./summary";

const BATCH_SIZE = 50;

type SweepServices = Pick<
  DocumentServices,
  "shards" | "shardsBefore" | "clock" | "pdfs"
>;

/**
 * Finishes an issue whose Worker died: a committed document is listed (if
 * still visible); a PDF whose document never committed is removed.
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

/**
 * Settles the pending notes of issues that never finished, in bounded
 * rounds per shard: each note goes once its PDF is removed or its document
 * listed.
 */
export async function sweepOrphanPdfs(
  services: SweepServices,
  maxRounds = 20,
): Promise<number> {
  const before = services.clock.now() - ORPHAN_AGE_MS;
  let settled = 0;
  for (const shard of services.shards) {
    for (let round = 0; round < maxRounds; round++) {
      const stale = await findStalePendingPdfObjects(shard, before, BATCH_SIZE);
      if (stale.length === 0) break;
      const keys = stale.map((row) => row.objectKey);
      for (const key of keys) await settle(services, key);
      await deletePendingPdfObjects(shard, keys);
      settled += keys.length;
    }
  }
  return settled;
}
