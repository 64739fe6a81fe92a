import {
  findEmptyExpiredDemoSessions,
  findExpiredDemoDocuments,
  purgeDemoSessionRows,
  purgeDocumentRows,
} from "../../db/demo-sessions";
import { inRounds, type QueryBudget, type RoundCost } from "../cron-budget";
import { pdfObjectKey } from "../documents/issue-document";
import type { Services } from "../services";
import { directoryShard } from "../shard-routing";

// A round of documents: the expired ones, one batch of four statements (their
// PDFs removed first); a round of sessions: the empty ones, one batch of two.
const DOCUMENTS_ROUND: RoundCost = { look: 1, fixed: 4, perRow: 0, rows: 50 };
const SESSIONS_ROUND: RoundCost = { look: 1, fixed: 2, perRow: 0, rows: 50 };

export interface PurgeReport {
  documents: number;
  sessions: number;
}

/**
 * Removes what expired demo sessions left: their documents (PDFs first, so
 * that a failure leaves rows to find again, never orphan objects), then the
 * tokens and organizations that have nothing left, in rounds while `budget`
 * lasts; the next run continues.
 */
export async function purgeExpiredDemoSessions(
  services: Pick<Services, "shards" | "clock" | "pdfs">,
  budget: QueryBudget,
): Promise<PurgeReport> {
  // Demo sessions and everything they issued live in shard 0 (shard-routing.ts).
  const db = [directoryShard(services.shards)];
  const now = services.clock.now();
  const documents = await inRounds(
    budget,
    db,
    now,
    DOCUMENTS_ROUND,
    async (shard, limit) => {
      const expired = await findExpiredDemoDocuments(shard, now, limit);
      if (expired.length === 0) return { found: 0, finished: 0 };
      for (const { uuid } of expired) {
        await services.pdfs.delete(pdfObjectKey(uuid));
      }
      await purgeDocumentRows(
        shard,
        expired.map((row) => row.uuid),
      );
      return { found: expired.length, finished: expired.length };
    },
  );
  const sessions = await inRounds(
    budget,
    db,
    now,
    SESSIONS_ROUND,
    async (shard, limit) => {
      const found = await findEmptyExpiredDemoSessions(shard, now, limit);
      if (found.length > 0) await purgeDemoSessionRows(shard, found);
      return { found: found.length, finished: found.length };
    },
  );
  return { documents, sessions };
}
