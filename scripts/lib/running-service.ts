// The `npm start` running on a local state folder, if any: start.ts notes its
// port and process in the folder, so that the tools reach the local state
// through it (a request, not a second Worker started on the same files).
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

const NOTE = "running-service.json";

interface Note {
  port: number;
  pid: number;
}

/** Notes that this process serves `persistTo` on `port`; the returned function removes the note. */
export async function noteRunningService(
  persistTo: string,
  port: number,
): Promise<() => Promise<void>> {
  const file = join(persistTo, NOTE);
  const note: Note = { port, pid: process.pid };
  await writeFile(file, `${JSON.stringify(note)}\n`);
  return () => rm(file, { force: true });
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * The origin of the `npm start` serving `persistTo`, when its note names a
 * live process whose port answers within a second; otherwise null (none
 * runs, it is still starting, or it died without removing its note).
 */
export async function runningServiceOrigin(
  persistTo: string,
): Promise<string | null> {
  let note: Note;
  try {
    note = JSON.parse(await readFile(join(persistTo, NOTE), "utf8")) as Note;
  } catch {
    return null;
  }
  if (!Number.isInteger(note.port) || !alive(note.pid)) return null;
  const origin = `http://127.0.0.1:${note.port}`;
  try {
    const answer = await fetch(`${origin}/api/v1/openapi.json`, {
      signal: AbortSignal.timeout(1_000),
    });
    await answer.body?.cancel();
    return answer.ok ? origin : null;
  } catch {
    return null;
  }
}
