/**
 * The caller's public IP as Cloudflare's edge reports it (docs/api.md, Authentication and keys).
 * A request without one (only possible off the edge, as in tests) counts as
 * one "unknown" address: it matches no allow-list and shares its demo limits.
 */
export const clientIp = (request: Request): string =>
  request.headers.get("CF-Connecting-IP") ?? "unknown";
