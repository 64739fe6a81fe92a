// The worker project's Worker (vitest.config.ts): both Workers composed as
// in production (helpers/service.ts), the API Worker's cron and Durable
// Objects, on wrangler.toml's bindings and wrangler.edge.toml's assets.
import { systemClock } from "../src/clock";
import api from "../src/index";
import { renderDocumentPdf } from "../src/pdf/render-document";
import { createService } from "./helpers/service";

export { NamedLock, RateLimiter, ShardRebalance } from "../src/index";

export default {
  fetch: createService({ clock: systemClock, renderPdf: renderDocumentPdf })
    .fetch,
  scheduled: api.scheduled,
} satisfies ExportedHandler<Env>;
