import { and, eq, inArray, lte, notExists } from "drizzle-orm";
import {
  auditEvents,
  credentials,
  documents,
  organizations,
  referenceReservations,
} from "../../db/schema";
import type { DocumentServices } from "../documents/services";

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
  services: Pick<DocumentServices, "db" | "clock" | "pdfs">,
  maxRounds = 20,
): Promise<PurgeReport> {
  const { db } = services;
  const now = services.clock.now();
  const report: PurgeReport = { documents: 0, sessions: 0 };

  for (let round = 0; round < maxRounds; round++) {
    const expired = await db
      .select({ uuid: documents.uuid, objectKey: documents.pdfObjectKey })
      .from(documents)
      .where(
        and(eq(documents.environment, "demo"), lte(documents.expiresAt, now)),
      )
      .limit(BATCH_SIZE);
    if (expired.length === 0) break;
    for (const { objectKey } of expired) await services.pdfs.delete(objectKey);
    const uuids = expired.map((row) => row.uuid);
    await db.batch([
      db.delete(auditEvents).where(inArray(auditEvents.documentUuid, uuids)),
      db
        .delete(referenceReservations)
        .where(inArray(referenceReservations.documentUuid, uuids)),
      db.delete(documents).where(inArray(documents.uuid, uuids)),
    ]);
    report.documents += uuids.length;
  }

  for (let round = 0; round < maxRounds; round++) {
    const sessions = await db
      .select({
        id: credentials.id,
        organizationId: credentials.organizationId,
      })
      .from(credentials)
      .where(
        and(
          eq(credentials.environment, "demo"),
          lte(credentials.expiresAt, now),
          notExists(
            db
              .select({ uuid: documents.uuid })
              .from(documents)
              .where(eq(documents.credentialId, credentials.id)),
          ),
        ),
      )
      .limit(BATCH_SIZE);
    if (sessions.length === 0) break;
    await db.batch([
      db.delete(credentials).where(
        inArray(
          credentials.id,
          sessions.map((session) => session.id),
        ),
      ),
      // Each demo session has an organization of its own.
      db.delete(organizations).where(
        inArray(
          organizations.id,
          sessions.map((session) => session.organizationId),
        ),
      ),
    ]);
    report.sessions += sessions.length;
  }
  return report;
}
