import { inArray, lt, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "./client";
import {
  eventOutbox,
  events,
  webhookAttempts,
  webhookDeliveries,
} from "./schema";

/** `DELETE` of up to `limit` rows of `table` whose `time` is before `before`, through its index on it. */
const deleteBefore = (
  db: Database,
  table: SQLiteTable,
  time: SQLiteColumn,
  before: number,
  limit: number,
) =>
  db.delete(table).where(
    inArray(
      sql`rowid`,
      db
        .select({ rowid: sql`rowid` })
        .from(table)
        .where(lt(time, before) as SQL)
        .limit(limit),
    ),
  );

/**
 * Removes, in one batch, up to `limit` rows of each of a shard's event
 * tables older than `before`: the outbox, the events, their deliveries and
 * attempts. The most rows removed from one table.
 */
export async function purgeEventsBefore(
  db: Database,
  before: number,
  limit: number,
): Promise<number> {
  const results = await db.batch([
    deleteBefore(db, eventOutbox, eventOutbox.createdAt, before, limit),
    deleteBefore(db, events, events.createdAt, before, limit),
    deleteBefore(
      db,
      webhookDeliveries,
      webhookDeliveries.createdAt,
      before,
      limit,
    ),
    deleteBefore(
      db,
      webhookAttempts,
      webhookAttempts.attemptedAt,
      before,
      limit,
    ),
  ]);
  return Math.max(...results.map((result) => result.meta.changes));
}
