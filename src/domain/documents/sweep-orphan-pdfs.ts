import {
  deletePendingPdfObjects,
  findStalePendingPdfObjects,
} from "../../db/pending-pdf-objects";
import type { DocumentServices } from "./services";

// Far longer than any issue takes: a note this old belongs to a dead request.
export const ORPHAN_AGE_MS = 60 * 60 * 1000;
const BATCH_SIZE = 50;

/**
 * Removes the PDFs of issues that never committed (the Worker died between
 * storing the PDF and committing its document), in bounded rounds.
 */
export async function sweepOrphanPdfs(
  services: Pick<DocumentServices, "db" | "clock" | "pdfs">,
  maxRounds = 20,
): Promise<number> {
  const before = services.clock.now() - ORPHAN_AGE_MS;
  let removed = 0;
  for (let round = 0; round < maxRounds; round++) {
    const stale = await findStalePendingPdfObjects(
      services.db,
      before,
      BATCH_SIZE,
    );
    if (stale.length === 0) break;
    const keys = stale.map((row) => row.objectKey);
    for (const key of keys) await services.pdfs.delete(key);
    await deletePendingPdfObjects(services.db, keys);
    removed += keys.length;
  }
  return removed;
}
