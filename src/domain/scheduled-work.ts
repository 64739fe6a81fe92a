import { domainErrorBehind } from "../errors";
import { logFailure } from "../failure-log";
import { CRON_QUERY_SHARES, QueryBudget } from "./cron-budget";
import { purgeExpiredDemoSessions } from "./demo/purge-expired-sessions";
import { archiveDocuments } from "./documents/archive-documents";
import { finishStaleDeletions } from "./documents/finish-deletion";
import { settleCorrectionReservations } from "./documents/settle-correction-reservations";
import { sweepOrphanPdfs } from "./documents/sweep-orphan-pdfs";
import { purgeOldEvents } from "./events/purge-events";
import {
  announceLostEvents,
  resendLostDeliveries,
  resendLostRegistrations,
} from "./events/recover";
import { exportGateCalls } from "./operations/gate-calls";
import { pruneOpsCalls } from "./operations/ops-calls";
import type { SharedServices } from "./services";

type Task = (services: SharedServices, budget: QueryBudget) => Promise<unknown>;

/** Each task by its share of cron-budget.ts, with its name in the log, in the order they run. */
const TASKS: Record<keyof typeof CRON_QUERY_SHARES, [string, Task]> = {
  staleDeletions: ["stale_deletions", finishStaleDeletions],
  orphanPdfs: ["orphan_pdfs", sweepOrphanPdfs],
  correctionReservations: [
    "correction_reservations",
    settleCorrectionReservations,
  ],
  lostEvents: ["lost_events", announceLostEvents],
  lostDeliveries: ["lost_deliveries", resendLostDeliveries],
  lostRegistrations: ["lost_registrations", resendLostRegistrations],
  archive: ["archive", archiveDocuments],
  eventPurge: ["event_purge", purgeOldEvents],
  demoSessions: ["demo_sessions", purgeExpiredDemoSessions],
  opsCalls: ["ops_calls", pruneOpsCalls],
  gateCallExports: ["gate_call_exports", exportGateCalls],
};

/** What one run of the scheduled work did: each task's figures (null: it failed), and which ran out of their share. */
export type ScheduledWorkReport = Record<string, unknown> & {
  out_of_budget: string[];
};

/**
 * The cron's work (wrangler.toml's `[triggers]`), also run on demand by the
 * operations API: in the order of cron-budget.ts, each task within its own
 * share of the invocation's D1 queries: finishing deletions (list entries,
 * PDF objects), settling issues that never finished (their PDFs or list
 * entries), sending again the messages of events, deliveries and eFTI
 * registrations that were lost or not taken, archiving the documents past
 * their read window to R2, purging the events past their retention,
 * removing expired demo sessions, the operations API's calls past their
 * retention, then exporting the gates' audit trail of each complete day to
 * R2. One line says what each did, and which ran out of their share
 * (docs/operations.md "Watching production").
 */
export async function runScheduledWork(
  services: SharedServices,
): Promise<ScheduledWorkReport> {
  const done: Record<string, unknown> = {};
  const outOfBudget: string[] = [];
  for (const [share, [task, work]] of Object.entries(TASKS)) {
    const budget = new QueryBudget(
      CRON_QUERY_SHARES[share as keyof typeof CRON_QUERY_SHARES],
    );
    // A failure is logged and the other tasks still run; the next run
    // takes up what is left.
    try {
      done[share] = await work(services, budget);
    } catch (error) {
      // An outage's own error, not drizzle's wrapper with the query's values.
      const cause = domainErrorBehind(error)?.cause ?? error;
      logFailure({ event: "scheduled_cleanup_failed", task }, cause);
      done[share] = null;
    } finally {
      if (budget.exhausted) outOfBudget.push(task);
    }
  }
  const report = { ...done, out_of_budget: outOfBudget };
  console.log(JSON.stringify({ event: "scheduled_cleanup", ...report }));
  return report;
}
