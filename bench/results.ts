// bench/results.json: the figures of the last `npm run bench` and
// `npm run bench:http`, each merged in under its own key.
import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { cpus } from "node:os";

const RESULTS = new URL("./results.json", import.meta.url);

export function runEnvironment() {
  let commit = "unknown";
  try {
    commit = execFileSync("git", ["rev-parse", "HEAD"], {
      encoding: "utf8",
    }).trim();
  } catch {}
  return {
    date: new Date().toISOString(),
    commit,
    cpu: cpus()[0]?.model ?? "unknown",
    cpus: cpus().length,
    node: process.version,
  };
}

export async function mergeResults(
  part: Record<string, unknown>,
): Promise<void> {
  let current: Record<string, unknown> = {};
  try {
    current = JSON.parse(await readFile(RESULTS, "utf8"));
  } catch {}
  await writeFile(
    RESULTS,
    `${JSON.stringify({ ...current, ...part }, null, 2)}\n`,
  );
}
