import { createMiddleware } from "hono/factory";

// One year, the usual minimum for HSTS preload lists.
const HSTS = "max-age=31536000; includeSubDomains";

/**
 * Headers that every answer carries: no Referer leaves a QR link (its `k`
 * would go with it), no content sniffing of JSON or PDF, and HTTPS only
 * from now on for a client that reached us over HTTPS (a plain-HTTP answer
 * cannot set it, RFC 6797 section 7.2).
 */
export const securityHeaders = createMiddleware(async (c, next) => {
  await next();
  c.header("Referrer-Policy", "no-referrer");
  c.header("X-Content-Type-Options", "nosniff");
  if (new URL(c.req.url).protocol === "https:") {
    c.header("Strict-Transport-Security", HSTS);
  }
});
