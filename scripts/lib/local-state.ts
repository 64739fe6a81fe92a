// npm start's preparation of its local state in one Miniflare instance, not
// one wrangler process a shard and a font (each started a workerd per
// migration): every shard of wrangler.toml migrated as `wrangler d1
// migrations apply --local` does it, with the same statements and
// d1_migrations rows, so that wrangler's own commands and the deploy agree
// with it afterwards; and the fallback fonts the FONTS bucket lacks put there.
// A state prepared so is stamped with what it was prepared for: a later start
// with the same migrations and fonts neither imports Miniflare nor starts it
// (2 s of every later start, docs/performance.md).
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fallbackFontKey } from "../../src/font-coverage/coverage";
import { FALLBACK_FAMILIES } from "../../src/font-coverage/fallback-families";
import { cutFallbackFont } from "./fallback-font-files";
import { readLocalConfig } from "./local-config";
import { migrationStatements } from "./migration-statements";
import { API_CONFIG } from "./workers";

// wrangler's bookkeeping of applied migrations, as its `d1 migrations apply` writes it.
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "d1_migrations"(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`;

const FONTS_BINDING = "FONTS";

/** The migrations of `dir` in the order wrangler applies them: by file name. */
async function migrationNames(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.endsWith(".sql")).sort();
}

/** Applies to `db` the migrations of `dir` it lacks, each in one batch with its d1_migrations row. */
async function migrate(db: D1Database, dir: string): Promise<void> {
  await db.prepare(MIGRATIONS_TABLE).run();
  const applied = new Set(
    (
      await db.prepare("SELECT name FROM d1_migrations").all<{ name: string }>()
    ).results.map((row) => row.name),
  );
  for (const name of await migrationNames(dir)) {
    if (applied.has(name)) continue;
    const statements = migrationStatements(
      await readFile(join(dir, name), "utf8"),
    );
    await db.batch([
      ...statements.map((statement) => db.prepare(statement)),
      db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(name),
    ]);
  }
}

/** Puts into `bucket` the fallback fonts it lacks (their keys carry their content hash); returns their count. */
async function putMissingFonts(bucket: R2Bucket): Promise<number> {
  let put = 0;
  for (const family of FALLBACK_FAMILIES) {
    const key = fallbackFontKey(family);
    if (await bucket.head(key)) continue;
    await bucket.put(key, await readFile(cutFallbackFont(family)));
    put++;
  }
  return put;
}

/** What a state is prepared for: each shard's migrations and the fallback fonts' keys. */
async function preparedFor(
  config: ReturnType<typeof readLocalConfig>,
): Promise<string> {
  const shards = await Promise.all(
    config.d1_databases.map(async (shard) => ({
      binding: shard.binding,
      id: shard.database_id,
      migrations: await migrationNames(shard.migrations_dir),
    })),
  );
  const fonts = FALLBACK_FAMILIES.map(fallbackFontKey);
  return `${JSON.stringify({ shards, fonts }, null, 2)}\n`;
}

/**
 * Migrates every local shard and fills the FONTS bucket of the state in
 * `persistTo`, unless its stamp says it was prepared for the same
 * migrations and fonts (delete the state's folder to start afresh).
 */
export async function prepareLocalState(persistTo: string): Promise<void> {
  const config = readLocalConfig(API_CONFIG);
  const fonts = config.r2_buckets.find(
    (bucket) => bucket.binding === FONTS_BINDING,
  );
  if (!fonts) throw new Error(`${API_CONFIG} binds no ${FONTS_BINDING} bucket`);
  // Inside wrangler's own folder of the state: gone with its data.
  const stamp = join(persistTo, "v3", "deca-prepared.json");
  const wanted = await preparedFor(config);
  if ((await readFile(stamp, "utf8").catch(() => null)) === wanted) return;
  const { convertV4MiniflareOptions, Miniflare } = await import("miniflare");
  const miniflare = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: "",
      // Where wrangler keeps a --persist-to state's D1 and R2 data.
      resourcePersistencePath: join(persistTo, "v3"),
      d1Databases: Object.fromEntries(
        config.d1_databases.map((shard) => [shard.binding, shard.database_id]),
      ),
      r2Buckets: { [FONTS_BINDING]: fonts.bucket_name },
    }),
  );
  try {
    for (const shard of config.d1_databases) {
      await migrate(
        (await miniflare.getD1Database(shard.binding)) as D1Database,
        shard.migrations_dir,
      );
    }
    const put = await putMissingFonts(
      (await miniflare.getR2Bucket(FONTS_BINDING)) as unknown as R2Bucket,
    );
    if (put > 0)
      console.error(`Put ${put} fallback fonts in the local bucket.`);
  } finally {
    await miniflare.dispose();
  }
  await writeFile(stamp, wanted);
}
