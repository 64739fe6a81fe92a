import { EVENT_RETENTION_MS } from "./retention";

/**
 * The oldest creation time of an event the events API still shows at `now`:
 * one past the retention is gone, whether or not the cron purged it yet.
 */
export const keptSince = (now: number): number => now - EVENT_RETENTION_MS + 1;
