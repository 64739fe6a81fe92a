import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * Which databases: the local ones of `npm start` (optionally elsewhere on
 * disk), or the deployed ones, those of wrangler.toml's production
 * environment.
 */
export interface DatabaseTarget {
  remote: boolean;
  persistTo?: string | undefined;
}

/** The wrangler.toml environment `npm run deploy` deploys. */
export const PRODUCTION_ENVIRONMENT = "production";

/** The wrangler.toml environment of a target: none (the top level) locally. */
export const configEnvironment = (
  target: DatabaseTarget,
): string | undefined => (target.remote ? PRODUCTION_ENVIRONMENT : undefined);

const targetFlags = (target: DatabaseTarget): string[] =>
  target.remote
    ? ["--remote", "--env", PRODUCTION_ENVIRONMENT]
    : [
        "--local",
        ...(target.persistTo ? ["--persist-to", target.persistTo] : []),
      ];

// A running `npm start` (or a previous release beside a deploy's steps) may
// hold a local shard's write lock for a moment. Each local command is one
// batch, committed or rolled back whole, so running it again is safe.
const LOCKED = /SQLITE_BUSY|database is locked/;
const LOCKED_RETRY_DELAYS_MS = [250, 500, 1_000, 2_000, 4_000, 8_000];

async function wrangler(args: string[]): Promise<string> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      const { stdout } = await run("wrangler", args, {
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, CI: "true" },
      });
      return stdout;
    } catch (error) {
      const { stderr, stdout } = error as { stderr?: string; stdout?: string };
      const output = stderr || stdout || "";
      const delay = LOCKED_RETRY_DELAYS_MS[attempt];
      if (args.includes("--local") && LOCKED.test(output) && delay) {
        await new Promise((resolve) => setTimeout(resolve, delay));
        continue;
      }
      throw new Error(`wrangler ${args[0]} ${args[1]} failed:\n${output}`);
    }
  }
}

/** Applies the SQL migrations of `migrations/` that the database `binding` has not seen yet. */
export async function applyMigrations(
  target: DatabaseTarget,
  binding: string,
): Promise<void> {
  await wrangler([
    "d1",
    "migrations",
    "apply",
    binding,
    ...targetFlags(target),
  ]);
}

/**
 * Runs a SQL script (statements separated by `;`) on the local database
 * `binding` and returns the rows of each statement, for tests and
 * benchmarks. Never on a deployment: there wrangler goes through D1's import
 * API, which answers no rows and takes the database offline while it runs;
 * the operations API (docs/operations.md) works on the deployed data.
 */
export async function executeSql(
  target: DatabaseTarget,
  binding: string,
  sql: string,
): Promise<Record<string, unknown>[][]> {
  if (target.remote) {
    throw new Error("executeSql reads local databases only");
  }
  const dir = await mkdtemp(join(tmpdir(), "deca-sql-"));
  const file = join(dir, "script.sql");
  try {
    await writeFile(file, sql);
    const stdout = await wrangler([
      "d1",
      "execute",
      binding,
      ...targetFlags(target),
      "--file",
      file,
      "--json",
    ]);
    const statements = JSON.parse(stdout) as {
      results: Record<string, unknown>[];
    }[];
    return statements.map((statement) => statement.results);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
