import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../../env";
import { errorPage, errorPagePolicy } from "../error-page";
import { prefersHtml } from "../prefers-html";

/**
 * A QR link's error for a browser that ranks HTML above JSON: the same
 * status and headers (Retry-After) with a short page instead of the JSON
 * body, one page per kind of answer whatever the cause, so that a 404 tells
 * nothing more than today's body (docs/api.md, QR links).
 */
export const errorPageForPeople = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const { status } = c.res;
  if (status < 400) return;
  c.header("Vary", "Accept");
  if (!prefersHtml(c.req.header("Accept"))) return;
  c.res = new Response(errorPage(status), {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": await errorPagePolicy(),
    },
  });
});
