import type { Clock } from "./clock";
import { openDatabase } from "./db/client";
import { purgeExpiredDemoSessions } from "./domain/demo/purge-expired-sessions";
import { parseKeyring } from "./storage/keyring";
import { createPdfStore } from "./storage/pdf-store";

/** The cron work of wrangler.toml's `[triggers]`: removing expired demo sessions. */
export const createScheduledHandler =
  (dependencies: { clock: Clock }): ExportedHandlerScheduledHandler<Env> =>
  async (_controller, env) => {
    const report = await purgeExpiredDemoSessions({
      db: openDatabase(env.DB),
      clock: dependencies.clock,
      pdfs: createPdfStore(
        env.PDFS,
        parseKeyring(env.PDF_KEYRING, "PDF_KEYRING"),
      ),
    });
    console.log(JSON.stringify({ event: "demo_purge", ...report }));
  };
