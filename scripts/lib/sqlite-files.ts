import { readdir } from "node:fs/promises";
import { join } from "node:path";

/** Every SQLite file under `folder` of a local state (D1 databases, R2 and DO metadata). */
export async function sqliteFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true });
  return entries
    .filter((entry) => entry.endsWith(".sqlite"))
    .map((entry) => join(folder, entry));
}
