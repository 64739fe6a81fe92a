import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readLocalConfig } from "../../scripts/lib/local-config";
import { prepareLocalState } from "../../scripts/lib/local-state";
import { API_CONFIG } from "../../scripts/lib/workers";

// npm start prepares its state (shards migrated, fallback fonts put) once for
// a set of migrations and fonts, and stamps it: a later start with the same
// ones skips the preparation.

const folders: string[] = [];
const newState = async () => {
  const folder = await mkdtemp(join(tmpdir(), "deca-local-state-"));
  folders.push(folder);
  return folder;
};
afterAll(() =>
  Promise.all(
    folders.map((folder) => rm(folder, { recursive: true, force: true })),
  ),
);

const stampOf = (state: string) => join(state, "v3", "deca-prepared.json");

describe("npm start's preparation of its local state", () => {
  it("migrates a fresh state and stamps it with each shard's migrations and the fonts", async () => {
    const state = await newState();
    await prepareLocalState(state);
    const stamp = JSON.parse(await readFile(stampOf(state), "utf8")) as {
      shards: { binding: string; migrations: string[] }[];
      fonts: string[];
    };
    const { d1_databases: shards } = readLocalConfig(API_CONFIG);
    expect(stamp.shards.map(({ binding }) => binding)).toEqual(
      shards.map(({ binding }) => binding),
    );
    for (const shard of stamp.shards) {
      expect(shard.migrations.length).toBeGreaterThan(0);
    }
    expect(stamp.fonts.length).toBeGreaterThan(0);
    expect(existsSync(join(state, "v3", "d1"))).toBe(true);
    expect(existsSync(join(state, "v3", "r2"))).toBe(true);
  }, 60_000);

  it("skips a state stamped for the same migrations and fonts, and prepares one stamped for others", async () => {
    const prepared = await newState();
    await prepareLocalState(prepared);
    const stamp = await readFile(stampOf(prepared), "utf8");

    // The same stamp in an empty state: nothing is prepared there.
    const skipped = await newState();
    await mkdir(join(skipped, "v3"), { recursive: true });
    await writeFile(stampOf(skipped), stamp);
    await prepareLocalState(skipped);
    expect(existsSync(join(skipped, "v3", "d1"))).toBe(false);

    // A stamp of other migrations: prepared, and stamped anew.
    const older = await newState();
    await mkdir(join(older, "v3"), { recursive: true });
    await writeFile(stampOf(older), stamp.replace(/"0000_[^"]*",?/, ""));
    await prepareLocalState(older);
    expect(existsSync(join(older, "v3", "d1"))).toBe(true);
    expect(await readFile(stampOf(older), "utf8")).toBe(stamp);
  }, 60_000);
});
