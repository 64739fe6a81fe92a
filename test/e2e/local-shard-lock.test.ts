import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { setTimeout } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeSql } from "../../scripts/lib/d1";
import { shardBindings } from "../../scripts/lib/shards";
import { sqliteFiles } from "../../scripts/lib/sqlite-files";

// A local shard's SQLite file held by another process for a moment (a
// running `npm start`, or the previous release beside a deploy's steps):
// the migrations and scripts of `npm start` and `npm run deploy` wait for it
// instead of failing with SQLITE_BUSY.

describe("a local command on a shard another process holds", () => {
  let folder: string;
  const binding = shardBindings()[0] ?? "";

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "deca-shard-lock-"));
    await executeSql(
      { remote: false, persistTo: folder },
      binding,
      "CREATE TABLE waits (n INTEGER);",
    );
  }, 60_000);
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("runs once when the lock is released, its statements applied once", async () => {
    const [file] = (await sqliteFiles(folder)).filter(
      (path) => !path.endsWith("metadata.sqlite"),
    );
    const holder = new DatabaseSync(file ?? "");
    holder.exec("BEGIN EXCLUSIVE");
    const insert = executeSql(
      { remote: false, persistTo: folder },
      binding,
      "INSERT INTO waits VALUES (1); INSERT INTO waits VALUES (2);",
    );
    // Longer than one wrangler run, so the first attempt meets the lock.
    await setTimeout(4_000);
    holder.exec("ROLLBACK");
    holder.close();
    await insert;
    const [rows] = await executeSql(
      { remote: false, persistTo: folder },
      binding,
      "SELECT n FROM waits ORDER BY n;",
    );
    expect(rows).toEqual([{ n: 1 }, { n: 2 }]);
  }, 60_000);
});
