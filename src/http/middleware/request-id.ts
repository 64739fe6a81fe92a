import { createMiddleware } from "hono/factory";
import { randomBase62 } from "../../domain/random";
import type { AppEnv } from "../../env";

// Always our own id, never one sent by the client, so that a log line's id
// names exactly one request. The header is set on the finished response,
// whatever built it: error bodies, JSON, and PDFs and pages made as Responses
// of their own.
export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const id = `req_${randomBase62(24)}`;
  c.set("requestId", id);
  await next();
  c.header("X-Request-Id", id);
});
