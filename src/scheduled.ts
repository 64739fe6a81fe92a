import { purgeExpiredDemoSessions } from "./domain/demo/purge-expired-sessions";
import { sweepOrphanPdfs } from "./domain/documents/sweep-orphan-pdfs";
import type { AppDependencies } from "./env";
import { createServices } from "./services";

/**
 * The cron work of wrangler.toml's `[triggers]`: removing expired demo
 * sessions and the PDFs of issues that never committed.
 */
export const createScheduledHandler =
  (dependencies: AppDependencies): ExportedHandlerScheduledHandler<Env> =>
  async (_controller, env) => {
    const services = createServices(env, dependencies);
    const report = await purgeExpiredDemoSessions(services);
    const orphanPdfs = await sweepOrphanPdfs(services);
    console.log(
      JSON.stringify({ event: "scheduled_cleanup", ...report, orphanPdfs }),
    );
  };
