import { eq, inArray, lte, sql } from "drizzle-orm";
import { oncePer } from "../once-per";
import type { Database } from "./client";
import type { PreparedCall } from "./prepared-batch";
import { pendingPdfObjects } from "./schema";

const insertNote = oncePer((db: Database) =>
  db
    .insert(pendingPdfObjects)
    .values({
      objectKey: sql.placeholder("objectKey"),
      createdAt: sql.placeholder("createdAt"),
    })
    .prepare(),
);

/** Notes a PDF about to be put in R2, before its document is committed. */
export const insertPendingPdfObject = (
  db: Database,
  objectKey: string,
  createdAt: number,
) => insertNote(db).run({ objectKey, createdAt });

/** The same note, for a batch of prepared queries (./prepared-batch.ts). */
export const pendingPdfNote = (
  db: Database,
  note: { objectKey: string; createdAt: number },
): PreparedCall<unknown> => [insertNote(db), note];

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
