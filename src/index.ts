import { createApp } from "./app";
import { systemClock } from "./clock";
import { renderDocumentPdf } from "./pdf/render-document";
import { createScheduledHandler } from "./scheduled";

export { NamedLock } from "./durable-objects/named-lock";
export { RateLimiter } from "./durable-objects/rate-limiter";
export { ShardRebalance } from "./durable-objects/shard-rebalance";

const dependencies = { clock: systemClock, renderPdf: renderDocumentPdf };

export default {
  fetch: createApp(dependencies).fetch,
  scheduled: createScheduledHandler(dependencies),
} satisfies ExportedHandler<Env>;
