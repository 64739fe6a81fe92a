import { createApp } from "./app";
import { systemClock } from "./clock";

export { RateLimiter } from "./durable-objects/rate-limiter";
export { ReferenceLock } from "./durable-objects/reference-lock";

const app = createApp({ clock: systemClock });

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
