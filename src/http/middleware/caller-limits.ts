import type { Credential } from "../../domain/authenticate";
import {
  type EarlyRateCount,
  enforceCredentialRateLimit,
} from "../../domain/credential-rate-limit";
import { requireDemoEnabled } from "../../domain/demo/demo-limits";
import type { Services } from "../../domain/services";

/**
 * The limits of any authenticated request, checked right after
 * authentication (docs/api.md, Order of checks: before the body is looked at). A real key may
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
  requireDemoEnabled(services.demo);
}
