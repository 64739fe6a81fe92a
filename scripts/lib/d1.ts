import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Which database: the local one of `npm start` (optionally elsewhere on disk) or the deployed one. */
export interface DatabaseTarget {
  remote: boolean;
  persistTo?: string | undefined;
}

export const targetFlags = (target: DatabaseTarget): string[] =>
  target.remote
    ? ["--remote"]
    : [
        "--local",
        ...(target.persistTo ? ["--persist-to", target.persistTo] : []),
      ];

export async function wrangler(args: string[]): Promise<string> {
  try {
    const { stdout } = await run("wrangler", args, {
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, CI: "true" },
    });
    return stdout;
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(
      `wrangler ${args[0]} ${args[1]} failed:\n${stderr || stdout}`,
    );
  }
}

/** Applies the SQL migrations of `migrations/` that the database has not seen yet. */
export async function applyMigrations(target: DatabaseTarget): Promise<void> {
  await wrangler(["d1", "migrations", "apply", "DB", ...targetFlags(target)]);
}

/**
 * Runs a SQL script (statements separated by `;`) and returns the rows of each
 * statement. wrangler takes no bound parameters, so values are inlined with
 * `sqlLiteral` (sql.ts). `binding` names the database in wrangler.toml.
 */
export async function executeSql(
  target: DatabaseTarget,
  sql: string,
  binding = "DB",
): Promise<Record<string, unknown>[][]> {
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
