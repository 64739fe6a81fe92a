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
import type { DocumentServices } from "../../domain/documents/services";
import { clientIp } from "../client-ip";
import type { AuthenticatedEnv } from "./authenticate";

/**
 * The limits of any authenticated request, checked right after
 * authentication (docs/api.md, Order of checks: before the body is looked at). A real key may
 * make so many requests a minute (counted from `early` when it was started
 * before authentication); a demo token works only while the demo is on.
 */
export async function enforceCallerLimits(
  services: DocumentServices,
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
