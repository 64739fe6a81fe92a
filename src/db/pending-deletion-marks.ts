import {
  and,
  eq,
  inArray,
  isNotNull,
  lte,
  notExists,
  type SQL,
  sql,
} from "drizzle-orm";
import type { Database } from "./client";
import { documents, pendingDeletionMarks } from "./schema";

/**
 * The insert of a deletion's mark, taking effect only if `condition` holds
 * for the document when its batch reaches it (the deletion took effect):
 * the PDF object's metadata does not say "deleted" yet.
 */
export const insertPendingDeletionMarkIf = (
  db: Database,
  mark: { documentUuid: string; createdAt: number },
  condition: SQL,
) =>
  db
    .insert(pendingDeletionMarks)
    .select(
      db
        .select({
          documentUuid: documents.uuid,
          createdAt: sql<number>`${mark.createdAt}`.as("created_at"),
        })
        .from(documents)
        .where(and(eq(documents.uuid, mark.documentUuid), condition)),
    )
    .onConflictDoNothing();

/** Up to `limit` marks made at or before `before`: deletions whose Worker may have died. */
export const findStalePendingDeletionMarks = (
  db: Database,
  before: number,
  limit: number,
) =>
  db
    .select()
    .from(pendingDeletionMarks)
    .where(lte(pendingDeletionMarks.createdAt, before))
    .limit(limit);

/** Removes the marks of deletions their PDF objects now tell. */
export const deletePendingDeletionMarks = (
  db: Database,
  documentUuids: string[],
) =>
  db
    .delete(pendingDeletionMarks)
    .where(inArray(pendingDeletionMarks.documentUuid, documentUuids));

/**
 * Removes the marks of deletions that never took effect, each only while
 * its document is still not deleted (one that committed meanwhile keeps
 * its mark for the next run).
 */
export const deleteUndoneDeletionMarks = (
  db: Database,
  documentUuids: string[],
) =>
  db.delete(pendingDeletionMarks).where(
    and(
      inArray(pendingDeletionMarks.documentUuid, documentUuids),
      notExists(
        db
          .select({ uuid: documents.uuid })
          .from(documents)
          .where(
            and(
              eq(documents.uuid, pendingDeletionMarks.documentUuid),
              isNotNull(documents.deletedAt),
            ),
          ),
      ),
    ),
  );
