import { and, eq, inArray, lte, notExists } from "drizzle-orm";
import type { Database } from "./client";
import { isDemoDocument } from "./documents";
import {
  auditEvents,
  credentials,
  documentSummaries,
  documents,
  eftiReads,
  organizations,
  referenceReservations,
} from "./schema";

/** Up to `limit` demo documents whose session ended by `now`. */
export const findExpiredDemoDocuments = (
  db: Database,
  now: number,
  limit: number,
): Promise<{ uuid: string }[]> =>
  db
    .select({ uuid: documents.uuid })
    .from(documents)
    .where(
      and(eq(documents.environment, "demo"), lte(documents.expiresAt, now)),
    )
    .limit(limit);

/** Removes documents for good, with their audit events, eFTI reads, reference reservations and summaries. */
export async function purgeDocumentRows(
  db: Database,
  uuids: string[],
): Promise<void> {
  await db.batch([
    db.delete(auditEvents).where(inArray(auditEvents.documentUuid, uuids)),
    db.delete(eftiReads).where(inArray(eftiReads.documentUuid, uuids)),
    db
      .delete(referenceReservations)
      .where(inArray(referenceReservations.documentUuid, uuids)),
    db.delete(documentSummaries).where(inArray(documentSummaries.uuid, uuids)),
    db.delete(documents).where(inArray(documents.uuid, uuids)),
  ]);
}

export interface DemoSession {
  credentialId: string;
  organizationId: string;
}

/** Up to `limit` demo sessions ended by `now` that have no document left. */
export const findEmptyExpiredDemoSessions = (
  db: Database,
  now: number,
  limit: number,
): Promise<DemoSession[]> =>
  db
    .select({
      credentialId: credentials.id,
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
            .where(
              and(eq(documents.credentialId, credentials.id), isDemoDocument),
            ),
        ),
      ),
    )
    .limit(limit);

/** Removes demo sessions for good: each one's token and its own organization. */
export async function purgeDemoSessionRows(
  db: Database,
  sessions: DemoSession[],
): Promise<void> {
  await db.batch([
    db.delete(credentials).where(
      inArray(
        credentials.id,
        sessions.map((session) => session.credentialId),
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
}
