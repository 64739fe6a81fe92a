import { createApp } from "./app";
import { systemClock } from "./clock";
import { renderDocumentPdf } from "./pdf/render-document";
import { createScheduledHandler } from "./scheduled";

export { RateLimiter } from "./durable-objects/rate-limiter";
export { ReferenceLock } from "./durable-objects/reference-lock";

const dependencies = { clock: systemClock, renderPdf: renderDocumentPdf };

export default {
  fetch: createApp(dependencies).fetch,
  scheduled: createScheduledHandler(dependencies),
} satisfies ExportedHandler<Env>;
