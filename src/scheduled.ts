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
} from "./domain/events/recover";
import { pruneOpsCalls } from "./domain/operations/ops-calls";
import type { AppDependencies } from "./env";
import { domainErrorBehind } from "./errors";
import { logFailure } from "./failure-log";
import { createServices } from "./services";

/**
 * What a cleanup task did, or null when it failed: the failure is logged
 * and the other tasks still run; the next run takes up what is left.
 */
async function attempt<T>(
  task: string,
  work: () => Promise<T>,
): Promise<T | null> {
  try {
    return await work();
  } catch (error) {
    // An outage's own error, not drizzle's wrapper with the query's values.
    const cause = domainErrorBehind(error)?.cause ?? error;
    logFailure({ event: "scheduled_cleanup_failed", task }, cause);
    return null;
  }
}

/**
 * The cron work of wrangler.toml's `[triggers]`, in the order of
 * cron-budget.ts, each task within its own share of the invocation's D1
 * queries: finishing deletions (list entries, PDF objects), settling issues
 * that never finished (their PDFs or list entries), sending again the
 * messages of events and deliveries that were lost, archiving the
 * documents past their read window to R2, purging the events past their
 * retention, removing expired demo sessions, then the operations API's
 * calls past their retention.
 */
export const createScheduledHandler =
  (dependencies: AppDependencies): ExportedHandlerScheduledHandler<Env> =>
  async (_controller, env) => {
    const services = createServices(env, dependencies);
    const share = (queries: number) => new QueryBudget(queries);
    const staleDeletions = await attempt("stale_deletions", () =>
      finishStaleDeletions(services, share(CRON_QUERY_SHARES.staleDeletions)),
    );
    const orphanPdfs = await attempt("orphan_pdfs", () =>
      sweepOrphanPdfs(services, share(CRON_QUERY_SHARES.orphanPdfs)),
    );
    const correctionReservations = await attempt(
      "correction_reservations",
      () =>
        settleCorrectionReservations(
          services,
          share(CRON_QUERY_SHARES.correctionReservations),
        ),
    );
    const lostEvents = await attempt("lost_events", () =>
      announceLostEvents(services, share(CRON_QUERY_SHARES.lostEvents)),
    );
    const lostDeliveries = await attempt("lost_deliveries", () =>
      resendLostDeliveries(services, share(CRON_QUERY_SHARES.lostDeliveries)),
    );
    const archive = await attempt("archive", () =>
      archiveDocuments(services, share(CRON_QUERY_SHARES.archive)),
    );
    const eventPurge = await attempt("event_purge", () =>
      purgeOldEvents(services, share(CRON_QUERY_SHARES.eventPurge)),
    );
    const demoSessions = await attempt("demo_sessions", () =>
      purgeExpiredDemoSessions(services, share(CRON_QUERY_SHARES.demoSessions)),
    );
    const opsCalls = await attempt("ops_calls", () =>
      pruneOpsCalls(services, share(CRON_QUERY_SHARES.opsCalls)),
    );
    console.log(
      JSON.stringify({
        event: "scheduled_cleanup",
        staleDeletions,
        orphanPdfs,
        correctionReservations,
        lostEvents,
        lostDeliveries,
        archive,
        eventPurge,
        demoSessions,
        opsCalls,
      }),
    );
  };
