import { eq, inArray, lte } from "drizzle-orm";
import type { Database } from "./client";
import { pendingPdfObjects } from "./schema";

/** Notes a PDF about to be put in R2, before its document is committed. */
export const insertPendingPdfObject = (
  db: Database,
  objectKey: string,
  createdAt: number,
) => db.insert(pendingPdfObjects).values({ objectKey, createdAt });

/** The statement that clears the note: in the document's batch, or after a failed issue. */
export const deletePendingPdfObject = (db: Database, objectKey: string) =>
  db
    .delete(pendingPdfObjects)
    .where(eq(pendingPdfObjects.objectKey, objectKey));

/** Up to `limit` notes older than `before`: PDFs whose issue never finished. */
export const findStalePendingPdfObjects = (
  db: Database,
  before: number,
  limit: number,
) =>
  db
    .select({ objectKey: pendingPdfObjects.objectKey })
    .from(pendingPdfObjects)
    .where(lte(pendingPdfObjects.createdAt, before))
    .limit(limit);

export const deletePendingPdfObjects = (db: Database, objectKeys: string[]) =>
  db
    .delete(pendingPdfObjects)
    .where(inArray(pendingPdfObjects.objectKey, objectKeys));
