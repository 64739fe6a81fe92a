// What the fixture makers share (scripts/make-*-fixture.ts): an old commit
// checked out beside this one, and its local state made fit to keep in the
// repository, so that tests of upgrades need no git history.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdtemp, readdir, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { promisify } from "node:util";
import { sqliteFiles } from "./sqlite-files";

const git = promisify(execFile);

/**
 * Runs `work` in a temporary worktree of `commit` (sharing this checkout's
 * node_modules) with a temporary folder beside it; removes both after.
 */
export async function withCheckoutOf<T>(
  commit: string,
  work: (checkout: string, folder: string) => Promise<T>,
): Promise<T> {
  const folder = await mkdtemp(join(tmpdir(), "deca-fixture-"));
  const checkout = join(folder, "checkout");
  await git("git", ["worktree", "add", "--detach", checkout, commit]);
  try {
    await symlink(
      join(process.cwd(), "node_modules"),
      join(checkout, "node_modules"),
    );
    return await work(checkout, folder);
  } finally {
    if (existsSync(checkout)) {
      await git("git", ["worktree", "remove", "--force", checkout]);
    }
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * Folds any write-ahead log into its database and checks each database
 * whole, so that the copied files need no -wal or -shm beside them.
 */
async function settleSqliteFiles(stateDir: string): Promise<void> {
  for (const file of await sqliteFiles(stateDir)) {
    const database = new DatabaseSync(file);
    database.exec("PRAGMA wal_checkpoint(TRUNCATE);");
    const check = database.prepare("PRAGMA integrity_check;").get();
    database.close();
    if (check?.integrity_check !== "ok") {
      throw new Error(`${file}: ${JSON.stringify(check)}`);
    }
  }
  const leftovers = (await readdir(stateDir, { recursive: true })).filter(
    (entry) => entry.endsWith("-wal") || entry.endsWith("-shm"),
  );
  if (leftovers.length > 0) throw new Error(`left: ${leftovers.join(", ")}`);
}

/**
 * What a fixture leaves out: the fonts bucket (15 MB; every `npm start`
 * uploads its own commit's fonts) and miniflare's traces; neither is the
 * old service's data.
 */
async function leftOut(stateDir: string): Promise<Set<string>> {
  const paths = new Set(
    ["v3/r2/deca-fonts", "v3/observability"].map((path) =>
      join(stateDir, path),
    ),
  );
  const buckets = join(stateDir, "v3/r2/miniflare-R2BucketObject");
  for (const file of await sqliteFiles(buckets)) {
    if (file.endsWith("metadata.sqlite")) continue;
    const database = new DatabaseSync(file);
    const objects = database
      .prepare(
        `SELECT count(*) AS every, count(*) FILTER (WHERE key LIKE 'fallback/%') AS fonts
           FROM _mf_objects;`,
      )
      .get();
    database.close();
    if (objects?.fonts === objects?.every) paths.add(file);
  }
  return paths;
}

/** Copies a stopped service's state folder to `destination`, replacing it, without what is left out. */
export async function keepState(
  stateDir: string,
  destination: string,
): Promise<void> {
  const left = await leftOut(stateDir);
  await settleSqliteFiles(stateDir);
  await rm(destination, { recursive: true, force: true });
  await cp(stateDir, destination, {
    recursive: true,
    filter: (path) => !left.has(path),
  });
}
