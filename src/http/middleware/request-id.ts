import { createMiddleware } from "hono/factory";
import { randomBase62 } from "../../domain/random";
import type { AppEnv } from "../../env";

// Always our own id, never one sent by the client, so that a log line's id
// names exactly one request.
export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const id = `req_${randomBase62(24)}`;
  c.set("requestId", id);
  c.header("X-Request-Id", id);
  await next();
});
