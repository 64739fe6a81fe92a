import { drizzle } from "drizzle-orm/d1";
import { oncePer } from "../once-per";
import { reportingOutages } from "./outage";
import * as schema from "./schema";

const connect = (d1: D1Database) => drizzle(reportingOutages(d1), { schema });

export type Database = ReturnType<typeof connect>;

// drizzle derives its relational configuration from the schema on every
// call, about a tenth of a QR download's time: one instance per binding.
/** The database behind a D1 binding, through drizzle; an outage fails as a 503. */
export const openDatabase = oncePer(connect);

/** The D1 bindings DB_0, DB_1, … in order, as many as are bound. */
export function shardBindings(env: object): D1Database[] {
  const bindings: D1Database[] = [];
  for (;;) {
    const binding = Reflect.get(env, `DB_${bindings.length}`) as
      | D1Database
      | undefined;
    if (!binding) return bindings;
    bindings.push(binding);
  }
}

/** Every shard's database, DB_0 first (src/domain/shard-routing.ts picks one). */
export const openShards = (env: object): Database[] =>
  shardBindings(env).map(openDatabase);
