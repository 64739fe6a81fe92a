import { runScheduledWork } from "./domain/scheduled-work";
import type { AppDependencies } from "./env";
import { createServices } from "./services";

/** wrangler.toml's cron: the scheduled work (src/domain/scheduled-work.ts). */
export const createScheduledHandler =
  (dependencies: AppDependencies): ExportedHandlerScheduledHandler<Env> =>
  async (_controller, env) => {
    await runScheduledWork(createServices(env, dependencies));
  };
