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
  const outOfBudget: string[] = [];
  /**
   * What `work` did within the share of `task`, or null when it failed:
   * the failure is logged and the other tasks still run; the next run
   * takes up what is left.
   */
  const attempt = async <T>(
    task: string,
    share: keyof typeof CRON_QUERY_SHARES,
    work: (services: SharedServices, budget: QueryBudget) => Promise<T>,
  ): Promise<T | null> => {
    const budget = new QueryBudget(CRON_QUERY_SHARES[share]);
    try {
      return await work(services, budget);
    } catch (error) {
      // An outage's own error, not drizzle's wrapper with the query's values.
      const cause = domainErrorBehind(error)?.cause ?? error;
      logFailure({ event: "scheduled_cleanup_failed", task }, cause);
      return null;
    } finally {
      if (budget.exhausted) outOfBudget.push(task);
    }
  };
  const staleDeletions = await attempt(
    "stale_deletions",
    "staleDeletions",
    finishStaleDeletions,
  );
  const orphanPdfs = await attempt(
    "orphan_pdfs",
    "orphanPdfs",
    sweepOrphanPdfs,
  );
  const correctionReservations = await attempt(
    "correction_reservations",
    "correctionReservations",
    settleCorrectionReservations,
  );
  const lostEvents = await attempt(
    "lost_events",
    "lostEvents",
    announceLostEvents,
  );
  const lostDeliveries = await attempt(
    "lost_deliveries",
    "lostDeliveries",
    resendLostDeliveries,
  );
  const lostRegistrations = await attempt(
    "lost_registrations",
    "lostRegistrations",
    resendLostRegistrations,
  );
  const archive = await attempt("archive", "archive", archiveDocuments);
  const eventPurge = await attempt("event_purge", "eventPurge", purgeOldEvents);
  const demoSessions = await attempt(
    "demo_sessions",
    "demoSessions",
    purgeExpiredDemoSessions,
  );
  const opsCalls = await attempt("ops_calls", "opsCalls", pruneOpsCalls);
  const gateCallExports = await attempt(
    "gate_call_exports",
    "gateCallExports",
    exportGateCalls,
  );
  const report = {
    staleDeletions,
    orphanPdfs,
    correctionReservations,
    lostEvents,
    lostDeliveries,
    lostRegistrations,
    archive,
    eventPurge,
    demoSessions,
    opsCalls,
    gateCallExports,
    out_of_budget: outOfBudget,
  };
  console.log(JSON.stringify({ event: "scheduled_cleanup", ...report }));
  return report;
}
