// The API Worker's cron under `npm start`: wrangler dev runs no cron, and its
// manual trigger reaches the front Worker only (the edge Worker, which has
// none), so the start script runs the same work through the operations API
// (POST /ops/v1/scheduled-work) on the schedule of wrangler.toml's crons.

const EVERY_N_MINUTES = /^\*(?:\/(\d+))? \* \* \* \*$/;

/** Minutes between two runs of `cron`, for the "every N minutes" forms (`*` or `*\/N` minutes, the rest `*`); null for any other. */
export function minutesBetweenRuns(cron: string): number | null {
  const match = EVERY_N_MINUTES.exec(cron.trim());
  if (!match) return null;
  const minutes = Number(match[1] ?? 1);
  return minutes >= 1 ? minutes : null;
}

/**
 * Runs `work` every `minutes`, each run after the last has ended; a failed
 * run is reported and the next one still comes. Returns what stops it.
 */
export function runEvery(
  minutes: number,
  work: () => Promise<unknown>,
  onFailure: (error: unknown) => void,
): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(async () => {
      await work().catch(onFailure);
      schedule();
    }, minutes * 60_000);
    // The schedule alone keeps no process alive.
    timer.unref();
  };
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
