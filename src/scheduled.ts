import { CRON_QUERY_SHARES, QueryBudget } from "./domain/cron-budget";
import { purgeExpiredDemoSessions } from "./domain/demo/purge-expired-sessions";
import { archiveDocuments } from "./domain/documents/archive-documents";
import { finishStaleDeletions } from "./domain/documents/finish-deletion";
import { settleCorrectionReservations } from "./domain/documents/settle-correction-reservations";
import { sweepOrphanPdfs } from "./domain/documents/sweep-orphan-pdfs";
import { purgeOldEvents } from "./domain/events/purge-events";
import {
  announceLostEvents,
  resendLostDeliveries,
  resendLostRegistrations,
} from "./domain/events/recover";
import { exportGateCalls } from "./domain/operations/gate-calls";
import { pruneOpsCalls } from "./domain/operations/ops-calls";
import type { AppDependencies } from "./env";
import { domainErrorBehind } from "./errors";
import { logFailure } from "./failure-log";
import { createServices, type SharedServices } from "./services";

/**
 * The cron work of wrangler.toml's `[triggers]`, in the order of
 * cron-budget.ts, each task within its own share of the invocation's D1
 * queries: finishing deletions (list entries, PDF objects), settling issues
 * that never finished (their PDFs or list entries), sending again the
 * messages of events, deliveries and eFTI registrations that were lost
 * or not taken, archiving the
 * documents past their read window to R2, purging the events past their
 * retention, removing expired demo sessions, the operations API's calls
 * past their retention, then exporting the gates' audit trail of each
 * complete day to R2. One line says what each did, and which ran
 * out of their share (docs/operations.md "Watching production").
 */
export const createScheduledHandler =
  (dependencies: AppDependencies): ExportedHandlerScheduledHandler<Env> =>
  async (_controller, env) => {
    const services = createServices(env, dependencies);
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
    const eventPurge = await attempt(
      "event_purge",
      "eventPurge",
      purgeOldEvents,
    );
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
    console.log(
      JSON.stringify({
        event: "scheduled_cleanup",
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
      }),
    );
  };
