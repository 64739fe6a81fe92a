import { createApiApp } from "./api-app";
import { systemClock } from "./clock";
import { renderDocumentPdf } from "./pdf/render-document";
import { createScheduledHandler } from "./scheduled";

export { NamedLock } from "./durable-objects/named-lock";
export { RateLimiter } from "./durable-objects/rate-limiter";
export { ShardRebalance } from "./durable-objects/shard-rebalance";

// The API Worker's entry (wrangler.toml), placed beside the data; the edge
// Worker (src/edge.ts) serves the QR links and the pages.
const dependencies = { clock: systemClock, renderPdf: renderDocumentPdf };

export default {
  fetch: createApiApp(dependencies).fetch,
  scheduled: createScheduledHandler(dependencies),
} satisfies ExportedHandler<Env>;
