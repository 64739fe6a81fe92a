import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "../../env";

/** The route pattern that answered (`/d/:uuid`), never the raw URL with its secrets. */
function routePattern(c: Context<AppEnv>): string | null {
  const handler = matchedRoutes(c).findLast((route) => route.method !== "ALL");
  return handler?.path ?? null;
}

/** One JSON line per request: no header, key, query string or QR URL. */
export const requestLog = createMiddleware<AppEnv>(async (c, next) => {
  const started = Date.now();
  await next();
  console.log(
    JSON.stringify({
      request_id: c.get("requestId"),
      method: c.req.method,
      route: routePattern(c),
      status: c.res.status,
      duration_ms: Date.now() - started,
      credential_id: c.get("credential")?.id ?? null,
    }),
  );
});
