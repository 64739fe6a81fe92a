// The worker project's Worker (vitest.config.ts): both Workers composed as
// in production (helpers/service.ts), the API Worker's cron and Durable
// Objects, on wrangler.toml's bindings and wrangler.edge.toml's assets.
import { systemClock } from "../src/clock";
import api from "../src/index";
import { renderDocumentPdf } from "../src/pdf/render-document";
import type { EventMessage } from "../src/schemas/event-message";
import { createService } from "./helpers/service";

export { RateLimiter, ShardRebalance } from "../src/index";

export default {
  fetch: createService({ clock: systemClock, renderPdf: renderDocumentPdf })
    .fetch,
  scheduled: api.scheduled,
  // The events the tests announce are taken off the queue and dropped: a
  // consumer running in the background would write into whichever test's
  // storage is current. A test that relays or delivers keeps the queue's
  // messages itself and runs the API Worker's consumer on them, with its own
  // sender and clock (helpers/webhooks.ts).
  async queue(batch) {
    batch.ackAll();
  },
} satisfies ExportedHandler<Env, EventMessage>;
