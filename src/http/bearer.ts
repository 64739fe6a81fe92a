// RFC 9110: the scheme is case-insensitive; the token is one run of non-space.
const BEARER = /^Bearer +(\S+) *$/i;

/** The token of `Authorization: Bearer <token>`, or null. */
export const bearerToken = (request: Request): string | null =>
  BEARER.exec(request.headers.get("Authorization") ?? "")?.[1] ?? null;
