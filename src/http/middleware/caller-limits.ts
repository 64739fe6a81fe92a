import { createMiddleware } from "hono/factory";
import type { Credential } from "../../domain/authenticate";
import {
  type EarlyRateCount,
  enforceCredentialRateLimit,
} from "../../domain/credential-rate-limit";
import {
  demoUnavailable,
  enforceDemoRateLimit,
} from "../../domain/demo/demo-limits";
import type { Services } from "../../domain/services";
import type { AuthenticatedEnv } from "../../env";
import { clientIp } from "../client-ip";

/**
 * The limits of any authenticated request, checked right after
 * authentication (decisions.md: before the body is looked at). A real key may
 * make so many requests a minute (counted from `early` when it was started
 * before authentication); a demo token works only while the demo is on.
 */
export async function enforceCallerLimits(
  services: Services,
  credential: Credential,
  early: EarlyRateCount | null,
): Promise<void> {
  if (credential.environment !== "demo") {
    await enforceCredentialRateLimit(services, credential, early);
    return;
  }
  if (!services.demo.enabled) throw demoUnavailable();
}

/**
 * On the routes that issue a document (create, correct), after
 * authentication: a demo token's IP may ask for so many documents a minute
 * and an hour.
 */
export const issuingLimit = createMiddleware<AuthenticatedEnv>(
  async (c, next) => {
    const { credential, services } = c.var;
    if (credential.environment === "demo") {
      await enforceDemoRateLimit(
        services,
        clientIp(c.req.raw),
        "documents",
        services.demo.documentLimits,
      );
    }
    await next();
  },
);
