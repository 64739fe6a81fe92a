import type { Database } from "./client";

/**
 * A query built and prepared once per database and isolate, then run with
 * each request's values (drizzle's `sql.placeholder`): building a query
 * costs drizzle about 0.1–0.2 ms of CPU, more than the rest of a read's own
 * work (bench/README.md "Where the CPU goes"). For the queries every request
 * of its kind runs.
 */
export function preparedPerDatabase<Query>(
  prepare: (db: Database) => Query,
): (db: Database) => Query {
  const prepared = new WeakMap<Database, Query>();
  return (db) => {
    let query = prepared.get(db);
    if (!query) {
      query = prepare(db);
      prepared.set(db, query);
    }
    return query;
  };
}
