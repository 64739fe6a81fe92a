import { purgeExpiredDemoSessions } from "./domain/demo/purge-expired-sessions";
import { archiveDocuments } from "./domain/documents/archive-documents";
import { finishStaleDeletions } from "./domain/documents/finish-deletion";
import { settleCorrectionReservations } from "./domain/documents/settle-correction-reservations";
import { sweepOrphanPdfs } from "./domain/documents/sweep-orphan-pdfs";
import type { AppDependencies } from "./env";
import { domainErrorBehind } from "./errors";
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
    const failure = cause instanceof Error ? cause : new Error(String(cause));
    console.error(
      JSON.stringify({
        event: "scheduled_cleanup_failed",
        task,
        error: failure.name,
        message: failure.message,
      }),
    );
    return null;
  }
}

/**
 * The cron work of wrangler.toml's `[triggers]`: removing expired demo
 * sessions and the PDFs of issues that never committed, archiving the
 * documents past their read window to R2, and finishing deletions whose PDF
 * object does not say so yet.
 */
export const createScheduledHandler =
  (dependencies: AppDependencies): ExportedHandlerScheduledHandler<Env> =>
  async (_controller, env) => {
    const services = createServices(env, dependencies);
    const demoSessions = await attempt("demo_sessions", () =>
      purgeExpiredDemoSessions(services),
    );
    const orphanPdfs = await attempt("orphan_pdfs", () =>
      sweepOrphanPdfs(services),
    );
    const correctionReservations = await attempt(
      "correction_reservations",
      () => settleCorrectionReservations(services),
    );
    const archive = await attempt("archive", () => archiveDocuments(services));
    const staleDeletions = await attempt("stale_deletions", () =>
      finishStaleDeletions(services),
    );
    console.log(
      JSON.stringify({
        event: "scheduled_cleanup",
        demoSessions,
        orphanPdfs,
        correctionReservations,
        archive,
        staleDeletions,
      }),
    );
  };
