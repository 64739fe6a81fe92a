// The worker project's Worker (vitest.config.ts): both Workers composed as
// in production (helpers/service.ts), the API Worker's cron, events queue
// consumer and Durable Objects, on wrangler.toml's bindings and
// wrangler.edge.toml's assets.
import { systemClock } from "../src/clock";
import api from "../src/index";
import { renderDocumentPdf } from "../src/pdf/render-document";
import { createQueueHandler } from "../src/queue";
import type { EventMessage } from "../src/schemas/event-message";
import { createService } from "./helpers/service";

export { NamedLock, RateLimiter, ShardRebalance } from "../src/index";

export default {
  fetch: createService({ clock: systemClock, renderPdf: renderDocumentPdf })
    .fetch,
  scheduled: api.scheduled,
  // Tests send nothing beyond the machine: a delivery this consumer attempts
  // fails as unreachable. A test that delivers hands the queue's messages to
  // a consumer with its own sender and clock (helpers/webhooks.ts).
  queue: createQueueHandler({
    clock: systemClock,
    renderPdf: renderDocumentPdf,
    sendWebhook: () =>
      Promise.reject(new Error("the test Worker posts no webhooks")),
  }),
} satisfies ExportedHandler<Env, EventMessage>;
