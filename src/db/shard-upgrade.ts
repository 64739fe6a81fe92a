import { and, asc, eq, gt, isNull, ne, notLike, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Database } from "./client";
import type { DocumentSummaryRow } from "./document-summaries";
import { copyOrganization } from "./organizations";
import type { ReservationRow } from "./reservations";
import {
  type CredentialRow,
  credentials,
  documentSummaries,
  type OrganizationRow,
  organizations,
  referenceReservations,
} from "./schema";

// The rows a single database left in DB_0 (docs/scale.md "Migrating from one
// database"), a page at a time in key order, and their move: copied into
// their routed shard (ignored when there already), then deleted from DB_0.
// Rows written before sharding are the only ones that can be misplaced, and
// only they carry a uuid other than version 8.

const writtenBeforeSharding = (column: SQLiteColumn) =>
  notLike(column, "________-____-8%");

/** Reservations of documents issued before sharding, after `after` (their key). */
export const reservationsBeforeSharding = (
  db: Database,
  after: ReservationRow | null,
  limit: number,
): Promise<ReservationRow[]> =>
  // Bounded scan of reference_reservations: the operator's upgrade step
  // (deploy, npm start), never a customer's request; it pages by key.
  db
    .select()
    .from(referenceReservations)
    .where(
      and(
        writtenBeforeSharding(referenceReservations.documentUuid),
        after
          ? sql`(${referenceReservations.organizationId}, ${referenceReservations.environment}, ${referenceReservations.reference}) > (${after.organizationId}, ${after.environment}, ${after.reference})`
          : undefined,
      ),
    )
    .orderBy(
      asc(referenceReservations.organizationId),
      asc(referenceReservations.environment),
      asc(referenceReservations.reference),
    )
    .limit(limit);

/** Summaries of documents issued before sharding after uuid `after`, with their credential's environment. */
export const summariesBeforeSharding = (
  db: Database,
  after: string | null,
  limit: number,
) =>
  // Bounded scan of document_summaries: the operator's upgrade step (deploy,
  // npm start), never a customer's request; summaries last a day.
  db
    .select({
      summary: documentSummaries,
      environment: credentials.environment,
    })
    .from(documentSummaries)
    .innerJoin(credentials, eq(credentials.id, documentSummaries.credentialId))
    .where(
      and(
        writtenBeforeSharding(documentSummaries.uuid),
        after ? gt(documentSummaries.uuid, after) : undefined,
      ),
    )
    .orderBy(asc(documentSummaries.uuid))
    .limit(limit);

/** Credentials other than demo tokens after id `after`, with their organization. */
export const realCredentialsAfter = (
  db: Database,
  after: string | null,
  limit: number,
) =>
  db
    .select({ credential: credentials, organization: organizations })
    .from(credentials)
    .innerJoin(organizations, eq(organizations.id, credentials.organizationId))
    .where(
      and(
        ne(credentials.environment, "demo"),
        after ? gt(credentials.id, after) : undefined,
      ),
    )
    .orderBy(asc(credentials.id))
    .limit(limit);

/** Runs statements in one batch of `db`; nothing when there are none. */
async function inOneBatch(
  db: Database,
  statements: Parameters<Database["batch"]>[0][number][],
): Promise<void> {
  const [first, ...rest] = statements;
  if (first) await db.batch([first, ...rest]);
}

/** Copies reservations into their shard, keeping any already there. */
export const copyReservations = (db: Database, rows: ReservationRow[]) =>
  inOneBatch(
    db,
    rows.map((row) =>
      db.insert(referenceReservations).values(row).onConflictDoNothing(),
    ),
  );

/** Copies summaries into their shard, keeping any already there. */
export const copySummaries = (db: Database, rows: DocumentSummaryRow[]) =>
  inOneBatch(
    db,
    rows.map((row) =>
      db.insert(documentSummaries).values(row).onConflictDoNothing(),
    ),
  );

/**
 * Copies credentials into their shard, each with a copy of its organization;
 * a copy already there takes a revocation made since.
 */
export const copyCredentials = (
  db: Database,
  rows: { credential: CredentialRow; organization: OrganizationRow }[],
) =>
  inOneBatch(
    db,
    rows.flatMap(({ credential, organization }) => [
      copyOrganization(db, organization),
      db
        .insert(credentials)
        .values(credential)
        .onConflictDoUpdate({
          target: credentials.id,
          set: {
            revokedAt: sql`coalesce(${credentials.revokedAt}, excluded.revoked_at)`,
          },
        }),
    ]),
  );

/** Deletes copied reservations from DB_0. */
export const deleteMovedReservations = (db: Database, rows: ReservationRow[]) =>
  inOneBatch(
    db,
    rows.map((row) =>
      db
        .delete(referenceReservations)
        .where(
          and(
            eq(referenceReservations.organizationId, row.organizationId),
            eq(referenceReservations.environment, row.environment),
            eq(referenceReservations.reference, row.reference),
          ),
        ),
    ),
  );

/** Deletes copied summaries from DB_0. */
export const deleteMovedSummaries = (
  db: Database,
  rows: DocumentSummaryRow[],
) =>
  inOneBatch(
    db,
    rows.map((row) =>
      db.delete(documentSummaries).where(eq(documentSummaries.uuid, row.uuid)),
    ),
  );

/**
 * Deletes copied credentials from DB_0, each only while it is as copied: a
 * revocation since the copy keeps its row here, and the next run brings it
 * to the copy.
 */
export const deleteMovedCredentials = (db: Database, rows: CredentialRow[]) =>
  inOneBatch(
    db,
    rows.map((row) =>
      db
        .delete(credentials)
        .where(
          and(
            eq(credentials.id, row.id),
            row.revokedAt === null
              ? isNull(credentials.revokedAt)
              : eq(credentials.revokedAt, row.revokedAt),
          ),
        ),
    ),
  );
