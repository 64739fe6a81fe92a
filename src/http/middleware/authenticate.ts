import { createMiddleware } from "hono/factory";
import { authenticate, type Credential } from "../../domain/authenticate";
import type { AppEnv } from "../../env";
import { clientIp } from "../client-ip";
import { enforceCallerLimits } from "./caller-limits";

// RFC 9110: the scheme is case-insensitive; the token is one run of non-space.
const BEARER = /^Bearer +(\S+) *$/i;

/** After `requireCredential`: the caller's credential is known. */
export type AuthenticatedEnv = AppEnv & {
  Variables: { credential: Credential };
};

/**
 * Requires `Authorization: Bearer <key>`, puts the credential on the context
 * and applies the limits of every authenticated request.
 */
export const requireCredential = createMiddleware<AuthenticatedEnv>(
  async (c, next) => {
    const match = BEARER.exec(c.req.header("Authorization") ?? "");
    const credential = await authenticate(
      c.var.services.shards,
      c.var.services.clock,
      match?.[1] ?? null,
      clientIp(c.req.raw),
    );
    c.set("credential", credential);
    await enforceCallerLimits(c.var.services, credential);
    await next();
  },
);
