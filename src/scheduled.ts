import type { Clock } from "./clock";
import { openDatabase } from "./db/client";
import { purgeExpiredDemoSessions } from "./domain/demo/purge-expired-sessions";
import { sweepOrphanPdfs } from "./domain/documents/sweep-orphan-pdfs";
import { parseKeyring } from "./storage/keyring";
import { createPdfStore } from "./storage/pdf-store";

/**
 * The cron work of wrangler.toml's `[triggers]`: removing expired demo
 * sessions and the PDFs of issues that never committed.
 */
export const createScheduledHandler =
  (dependencies: { clock: Clock }): ExportedHandlerScheduledHandler<Env> =>
  async (_controller, env) => {
    const services = {
      db: openDatabase(env.DB),
      clock: dependencies.clock,
      pdfs: createPdfStore(
        env.PDFS,
        parseKeyring(env.PDF_KEYRING, "PDF_KEYRING"),
      ),
    };
    const report = await purgeExpiredDemoSessions(services);
    const orphanPdfs = await sweepOrphanPdfs(services);
    console.log(
      JSON.stringify({ event: "scheduled_cleanup", ...report, orphanPdfs }),
    );
  };
