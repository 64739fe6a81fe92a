import type { Database } from "../../db/client";
import {
  deletePendingDeletionMarks,
  findStalePendingDeletionMarks,
} from "../../db/pending-deletion-marks";
import { pdfObjectKey } from "./issue-document";
import type { DocumentServices } from "./services";

// Far longer than a deletion takes: a mark this old belongs to a Worker that
// died before its PDF object said "deleted" (windows.ts counts on it).
export const DELETION_MARK_STALE_MS = 5 * 60 * 1000;
const BATCH_SIZE = 50;

/**
 * After a deletion committed in D1, once the answer is sent: its PDF object
 * says so, then its mark goes. No QR link reads that metadata before the
 * deletion window and its margin have passed (windows.ts); until then D1
 * decides. A failure is logged and the mark stays for the cron.
 */
export function settleDeletion(
  services: DocumentServices,
  shard: Database,
  uuid: string,
  deletedAt: number,
): void {
  services.background(
    "deletion_mark",
    services.pdfs
      .noteDeletion(pdfObjectKey(uuid), deletedAt)
      .then(() => deletePendingDeletionMarks(shard, [uuid])),
  );
}

/**
 * Finishes the deletions whose Worker died before their PDF object said
 * "deleted", in bounded rounds per shard; each mark goes once its object
 * tells the deletion.
 */
export async function finishStaleDeletions(
  services: Pick<DocumentServices, "shards" | "clock" | "pdfs">,
  maxRounds = 20,
): Promise<number> {
  const before = services.clock.now() - DELETION_MARK_STALE_MS;
  let finished = 0;
  for (const shard of services.shards) {
    for (let round = 0; round < maxRounds; round++) {
      const stale = await findStalePendingDeletionMarks(
        shard,
        before,
        BATCH_SIZE,
      );
      if (stale.length === 0) break;
      await Promise.all(
        stale.map((mark) =>
          services.pdfs.noteDeletion(
            pdfObjectKey(mark.documentUuid),
            mark.createdAt,
          ),
        ),
      );
      await deletePendingDeletionMarks(
        shard,
        stale.map((mark) => mark.documentUuid),
      );
      finished += stale.length;
    }
  }
  return finished;
}
