/** The caller's public IP as Cloudflare's edge reports it (decisions.md). */
export const clientIp = (request: Request): string | null =>
  request.headers.get("CF-Connecting-IP");
