import { inArray, lt } from "drizzle-orm";
import type { Database } from "./client";
import { documentSummaries, opsCalls } from "./schema";

/** The tables whose rows are removed once old: each one's key and the time its age counts from. */
const AGED = {
  /** List entries out of the read window: no list shows them. */
  document_summaries: {
    table: documentSummaries,
    key: documentSummaries.uuid,
    time: documentSummaries.createdAt,
  },
  /** Calls of the operations API past their retention. */
  ops_calls: { table: opsCalls, key: opsCalls.id, time: opsCalls.startedAt },
};

export type AgedTable = keyof typeof AGED;

/**
 * Removes up to `limit` rows of `aged` whose time is before `before`, in
 * one statement: the number removed.
 */
export async function deleteRowsBefore(
  db: Database,
  aged: AgedTable,
  before: number,
  limit: number,
): Promise<number> {
  const { table, key, time } = AGED[aged];
  const old = db
    .select({ key })
    .from(table)
    .where(lt(time, before))
    .limit(limit);
  const removed = await db
    .delete(table)
    .where(inArray(key, old))
    .returning({ key });
  return removed.length;
}
