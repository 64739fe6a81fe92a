import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { unstable_readConfig, unstable_splitSqlQuery } from "wrangler";
import { readLocalConfig } from "../../scripts/lib/local-config";
import { migrationStatements } from "../../scripts/lib/migration-statements";
import { API_CONFIG, EDGE_CONFIG } from "../../scripts/lib/workers";

// `npm start` reads wrangler.toml and splits the migrations without
// wrangler's JS API (its import was 1.3 s of every start): what it reads must
// be what wrangler reads.

const MIGRATIONS = "migrations";

/** A statement without its leading comment lines and closing semicolon: what SQLite runs. */
const bare = (statement: string) =>
  statement
    .replace(/^(\s*--[^\n]*\n)+/, "")
    .trim()
    .replace(/;$/, "");

describe("npm start's reading of the Workers' configs", () => {
  it.each([API_CONFIG, EDGE_CONFIG])(
    "finds in %s the vars, crons, databases and buckets wrangler finds",
    (path) => {
      // Typed here: wrangler's declaration of its config type does not resolve.
      const wrangler = unstable_readConfig(
        { config: path },
        { hideWarnings: true },
      ) as {
        vars: Record<string, unknown>;
        triggers: { crons?: string[] };
        d1_databases: {
          binding: string;
          database_id: string;
          migrations_dir?: string;
        }[];
        r2_buckets: { binding: string; bucket_name: string }[];
      };
      const local = readLocalConfig(path);
      expect(local.vars).toEqual(wrangler.vars);
      expect(local.crons).toEqual(wrangler.triggers.crons ?? []);
      expect(local.d1_databases).toEqual(
        wrangler.d1_databases.map((database) => ({
          binding: database.binding,
          database_id: database.database_id,
          migrations_dir: database.migrations_dir ?? MIGRATIONS,
        })),
      );
      expect(local.r2_buckets).toEqual(
        wrangler.r2_buckets.map(({ binding, bucket_name }) => ({
          binding,
          bucket_name,
        })),
      );
    },
  );

  it("splits every migration into the statements wrangler's splitter finds", async () => {
    const files = (await readdir(MIGRATIONS)).filter((file) =>
      file.endsWith(".sql"),
    );
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const sql = await readFile(join(MIGRATIONS, file), "utf8");
      // wrangler splits at semicolons; a breakpoint line is a comment to it.
      expect(migrationStatements(sql).map(bare), file).toEqual(
        unstable_splitSqlQuery(sql).map(bare),
      );
    }
  });

  it("splits at drizzle-kit's breakpoints only", () => {
    expect(
      migrationStatements(
        "CREATE TABLE a (x text);\n--> statement-breakpoint\nCREATE INDEX i ON a (x);\n",
      ),
    ).toEqual(["CREATE TABLE a (x text)", "CREATE INDEX i ON a (x)"]);
  });
});
