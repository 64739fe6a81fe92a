import type { Credential } from "../../domain/authenticate";
import { enforceCredentialRateLimit } from "../../domain/credential-rate-limit";
import {
  demoUnavailable,
  enforceDemoRateLimit,
} from "../../domain/demo/demo-limits";
import type { DocumentServices } from "../../domain/documents/services";
import { clientIp } from "../client-ip";

// Demo creation limits count documents asked for: creates and corrections.
const ISSUING_METHODS = new Set(["POST", "PUT"]);

/**
 * The limits of an authenticated caller, checked right after authentication
 * (decisions.md: before the body is looked at). A real key may make so
 * many requests a minute. A demo token works only while the demo is on, and
 * its IP may ask for so many documents a minute and an hour.
 */
export async function enforceCallerLimits(
  services: DocumentServices,
  request: Request,
  credential: Credential,
): Promise<void> {
  if (credential.environment !== "demo") {
    await enforceCredentialRateLimit(services, credential);
    return;
  }
  if (!services.demo.enabled) throw demoUnavailable();
  if (ISSUING_METHODS.has(request.method)) {
    await enforceDemoRateLimit(
      services,
      clientIp(request),
      "documents",
      services.demo.documentLimits,
    );
  }
}
