// What `npm start` reads of a Worker's wrangler.toml, at its top level (the
// local environment): read with a TOML parser, not wrangler's JS API, whose
// import alone took 1.3 s of every start. What wrangler's own reader makes of
// the same file is checked against it (test/e2e/local-config.test.ts).
import { readFileSync } from "node:fs";
import { parse } from "smol-toml";

/** A D1 database of wrangler.toml, with wrangler's default migrations folder. */
interface LocalDatabase {
  binding: string;
  database_id: string;
  migrations_dir: string;
}

export interface LocalConfig {
  vars: Record<string, string>;
  crons: string[];
  d1_databases: LocalDatabase[];
  r2_buckets: { binding: string; bucket_name: string }[];
}

// Where wrangler looks for a database's migrations when it names none.
const DEFAULT_MIGRATIONS_DIR = "migrations";

/** The top level of the wrangler config at `path`. */
export function readLocalConfig(path: string): LocalConfig {
  const toml = parse(readFileSync(path, "utf8")) as {
    vars?: Record<string, string>;
    triggers?: { crons?: string[] };
    d1_databases?: (Omit<LocalDatabase, "migrations_dir"> &
      Partial<LocalDatabase>)[];
    r2_buckets?: LocalConfig["r2_buckets"];
  };
  return {
    vars: toml.vars ?? {},
    crons: toml.triggers?.crons ?? [],
    d1_databases: (toml.d1_databases ?? []).map((database) => ({
      binding: database.binding,
      database_id: database.database_id,
      migrations_dir: database.migrations_dir ?? DEFAULT_MIGRATIONS_DIR,
    })),
    r2_buckets: toml.r2_buckets ?? [],
  };
}
