import type { PresentedKey } from "../../domain/api-keys";
import type { Credential } from "../../domain/authenticate";
import {
  type EarlyRateCount,
  enforceCredentialRateLimit,
  startRateCount,
} from "../../domain/credential-rate-limit";
import {
  enforceDemoTokenLimits,
  requireDemoEnabled,
} from "../../domain/demo/demo-limits";
import type { Services } from "../../domain/services";

/**
 * The counts a request starts before its key is checked, so that they run
 * while it is (one round trip instead of two): a real key's when this
 * isolate knows the key from this IP (credential-rate-limit.ts), a demo
 * token's network's always (the caller's own budget, whatever the token).
 */
export interface StartedCounts {
  early: EarlyRateCount | null;
  demo: Promise<void> | null;
}

export function startCallerCounts(
  services: Services,
  key: PresentedKey | null,
  ip: string,
  issuing: boolean,
): StartedCounts {
  const demo =
    key?.environment === "demo" && services.demo.enabled
      ? enforceDemoTokenLimits(services, ip, issuing)
      : null;
  // Looked at only once the key passed: a 401 or 403 wins over a 429 or 503.
  demo?.catch(() => undefined);
  return { early: startRateCount(services, key, ip), demo };
}

/**
 * The limits of any authenticated request, checked right after
 * authentication (docs/api.md, Order of checks: before the body is looked
 * at). A real key may make so many requests a minute (counted from `early`
 * when it was started before authentication); a demo token works only while
 * the demo is on, within its network's limits.
 */
export async function enforceCallerLimits(
  services: Services,
  credential: Credential,
  started: StartedCounts,
): Promise<void> {
  if (credential.environment !== "demo") {
    await enforceCredentialRateLimit(services, credential, started.early);
    return;
  }
  requireDemoEnabled(services.demo);
  await started.demo;
}
