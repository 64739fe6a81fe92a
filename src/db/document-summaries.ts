import { and, count, desc, eq, gte, inArray, lte, type SQL } from "drizzle-orm";
import type { Database } from "./client";
import { documentSummaries } from "./schema";

// A credential's list (document_summaries), in its home shard: one page and its
// total from a covering index, an entry per document issued, removed on deletion.

export interface DocumentListFilter {
  credentialId: string;
  createdSince: number;
  transportDateFrom?: string | undefined;
  transportDateTo?: string | undefined;
}

export type DocumentSummaryRow = typeof documentSummaries.$inferSelect;

function listCondition(filter: DocumentListFilter): SQL | undefined {
  return and(
    eq(documentSummaries.credentialId, filter.credentialId),
    gte(documentSummaries.createdAt, filter.createdSince),
    filter.transportDateFrom
      ? gte(documentSummaries.transportDate, filter.transportDateFrom)
      : undefined,
    filter.transportDateTo
      ? lte(documentSummaries.transportDate, filter.transportDateTo)
      : undefined,
  );
}

/** The two queries of a list page: the page's rows, and the total. */
export function listQueries(
  db: Database,
  filter: DocumentListFilter,
  page: { offset: number; limit: number },
) {
  const where = listCondition(filter);
  return [
    db
      .select()
      .from(documentSummaries)
      .where(where)
      .orderBy(desc(documentSummaries.createdAt), desc(documentSummaries.uuid))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(documentSummaries).where(where),
  ] as const;
}

/** One page of a credential's listed documents and the total, read in one batch of its home shard. */
export async function listDocumentSummaries(
  db: Database,
  filter: DocumentListFilter,
  page: { offset: number; limit: number },
): Promise<{ rows: DocumentSummaryRow[]; total: number }> {
  const [rows, totals] = await db.batch(listQueries(db, filter, page));
  return { rows, total: totals[0]?.total ?? 0 };
}

/** Lists a document in its credential's home shard; a second insert changes nothing. */
export async function insertSummary(
  db: Database,
  summary: DocumentSummaryRow,
): Promise<void> {
  await db.insert(documentSummaries).values(summary).onConflictDoNothing();
}

/** Takes deleted documents off their credentials' lists, in their home shard. */
export async function deleteSummaries(
  db: Database,
  uuids: string[],
): Promise<void> {
  await db
    .delete(documentSummaries)
    .where(inArray(documentSummaries.uuid, uuids));
}
