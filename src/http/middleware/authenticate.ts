import { createMiddleware } from "hono/factory";
import { authenticate, type Credential } from "../../domain/authenticate";
import type { AppEnv } from "../../env";
import { clientIp } from "../client-ip";

// RFC 9110: the scheme is case-insensitive; the token is one run of non-space.
const BEARER = /^Bearer +(\S+) *$/i;

/** Requires `Authorization: Bearer <key>` and puts the credential on the context. */
export const requireCredential = createMiddleware<
  AppEnv & { Variables: { credential: Credential } }
>(async (c, next) => {
  const match = BEARER.exec(c.req.header("Authorization") ?? "");
  c.set(
    "credential",
    await authenticate(
      c.var.db,
      c.var.clock,
      match?.[1] ?? null,
      clientIp(c.req.raw),
    ),
  );
  await next();
});
