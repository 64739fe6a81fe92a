import { createApiApp } from "./api-app";
import { systemClock } from "./clock";
import { renderDocumentPdf } from "./pdf/render-document";
import { createQueueHandler } from "./queue";
import { createScheduledHandler } from "./scheduled";
import type { EventMessage } from "./schemas/event-message";

export { RateLimiter } from "./durable-objects/rate-limiter";
export { ShardRebalance } from "./durable-objects/shard-rebalance";

// The API Worker's entry (wrangler.toml), placed beside the data; the edge
// Worker (src/edge.ts) serves the QR links and the pages. It also consumes
// the events queue: relays and webhook deliveries (src/queue.ts).
const dependencies = { clock: systemClock, renderPdf: renderDocumentPdf };

export default {
  fetch: createApiApp(dependencies).fetch,
  scheduled: createScheduledHandler(dependencies),
  queue: createQueueHandler(dependencies),
} satisfies ExportedHandler<Env, EventMessage>;
