import { and, count, desc, eq, gte, isNull, lte, type SQL } from "drizzle-orm";
import type { Database } from "./client";
import { documents } from "./schema";

export interface DocumentListFilter {
  credentialId: string;
  createdSince: number;
  transportDateFrom?: string | undefined;
  transportDateTo?: string | undefined;
}

export interface DocumentSummaryRow {
  uuid: string;
  reference: string | null;
  createdAt: number;
  transportDate: string;
  rectifiesUuid: string | null;
}

function listCondition(filter: DocumentListFilter): SQL | undefined {
  return and(
    eq(documents.credentialId, filter.credentialId),
    isNull(documents.deletedAt),
    gte(documents.createdAt, filter.createdSince),
    filter.transportDateFrom
      ? gte(documents.transportDate, filter.transportDateFrom)
      : undefined,
    filter.transportDateTo
      ? lte(documents.transportDate, filter.transportDateTo)
      : undefined,
  );
}

/** One page of a credential's visible documents and the total, read in one batch. */
export async function listDocumentSummaries(
  db: Database,
  filter: DocumentListFilter,
  page: { offset: number; limit: number },
): Promise<{ rows: DocumentSummaryRow[]; total: number }> {
  const where = listCondition(filter);
  const [rows, totals] = await db.batch([
    db
      .select({
        uuid: documents.uuid,
        reference: documents.reference,
        createdAt: documents.createdAt,
        transportDate: documents.transportDate,
        rectifiesUuid: documents.rectifiesUuid,
      })
      .from(documents)
      .where(where)
      .orderBy(desc(documents.createdAt), desc(documents.uuid))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(documents).where(where),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
}
