import { fillPlaceholders, type Query } from "drizzle-orm";
import type { Database } from "./client";

// drizzle's own batch takes query builders and builds each one's SQL again on
// every call, which costs more than the statements' work (bench/README.md,
// "Where the CPU goes"); these take queries prepared once per database.

/** A query prepared with `sql.placeholder`s; drizzle maps its rows. */
interface PreparedQuery<Rows> {
  getQuery(): Query;
  mapAllResult(result: unknown, isFromBatch: boolean): unknown;
  all(values: Record<string, unknown>): Promise<Rows>;
}

/** A prepared query and the values of its placeholders for this call. */
export type PreparedCall<Rows> = readonly [
  PreparedQuery<Rows>,
  Record<string, unknown>,
];

type RowsOf<Calls> = {
  -readonly [I in keyof Calls]: Calls[I] extends PreparedCall<infer Rows>
    ? Rows
    : never;
};

/**
 * Runs prepared queries with their values in one D1 batch: one round trip,
 * committed or rolled back as one. Each select answers its rows as drizzle
 * maps them; a write without `returning`, an empty list.
 */
export async function batchPrepared<
  const Calls extends readonly PreparedCall<unknown>[],
>(db: Database, calls: Calls): Promise<RowsOf<Calls>> {
  const statements = calls.map(([query, values]) => {
    const { sql, params } = query.getQuery();
    return db.$client.prepare(sql).bind(...fillPlaceholders(params, values));
  });
  const results = await db.$client.batch(statements);
  return calls.map(([query], index) =>
    query.mapAllResult(results[index], true),
  ) as RowsOf<Calls>;
}
