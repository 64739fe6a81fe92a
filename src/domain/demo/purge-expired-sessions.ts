import {
  findEmptyExpiredDemoSessions,
  findExpiredDemoDocuments,
  purgeDemoSessionRows,
  purgeDocumentRows,
} from "../../db/demo-sessions";
import { pdfObjectKey } from "../documents/issue-document";
import type { DocumentServices } from "../documents/services";
import { directoryShard } from "../shard-routing";

// Rows per round: small enough for D1's statement limits, large enough to
// keep up with the demo's issuing rate.
const BATCH_SIZE = 50;

export interface PurgeReport {
  documents: number;
  sessions: number;
}

/**
 * Removes what expired demo sessions left: their documents (PDFs first, so
 * that a failure leaves rows to find again, never orphan objects), then the
 * tokens and organizations that have nothing left. Bounded to `maxRounds`
 * rounds of each kind; the next run continues.
 */
export async function purgeExpiredDemoSessions(
  services: Pick<DocumentServices, "shards" | "clock" | "pdfs">,
  maxRounds = 20,
): Promise<PurgeReport> {
  // Demo sessions and everything they issued live in shard 0 (shard-routing.ts).
  const db = directoryShard(services.shards);
  const now = services.clock.now();
  const report: PurgeReport = { documents: 0, sessions: 0 };

  for (let round = 0; round < maxRounds; round++) {
    const expired = await findExpiredDemoDocuments(db, now, BATCH_SIZE);
    if (expired.length === 0) break;
    for (const { uuid } of expired) {
      await services.pdfs.delete(pdfObjectKey(uuid));
    }
    await purgeDocumentRows(
      db,
      expired.map((row) => row.uuid),
    );
    report.documents += expired.length;
  }

  for (let round = 0; round < maxRounds; round++) {
    const sessions = await findEmptyExpiredDemoSessions(db, now, BATCH_SIZE);
    if (sessions.length === 0) break;
    await purgeDemoSessionRows(db, sessions);
    report.sessions += sessions.length;
  }
  return report;
}
