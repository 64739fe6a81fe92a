import { type Context, Hono } from "hono";
import type { EdgeEnv } from "../../env";
import { notFound } from "../../errors";

/**
 * The pages' policy: their own scripts, styles and the API of this origin,
 * nothing else; no inline script. `blob:` frames show a PDF the playground
 * downloaded with its token; `data:` images are the viewer's icons.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The pages read the edge Worker's assets, nothing else of its bindings. */
type PagesEnv = { Bindings: Pick<EdgeEnv, "ASSETS"> };

/** A file of public/, through the ASSETS binding, with the pages' policy. */
const asset = (path?: string) => async (c: Context<PagesEnv>) => {
  const url = new URL(path ?? c.req.path, c.req.url);
  const response = await c.env.ASSETS.fetch(url);
  if (!response.ok) throw notFound();
  const page = new Response(response.body, response);
  page.headers.set("Content-Security-Policy", PAGE_CSP);
  return page;
};

export const pageRoutes = new Hono<PagesEnv>()
  .get("/", asset("/index.html"))
  .get("/play/*", asset())
  .get("/docs", asset("/docs/index.html"))
  .get("/docs/*", asset())
  .get("/vendor/*", asset());
