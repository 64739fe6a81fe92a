import { DomainError } from "../errors";
import type { Credential } from "./authenticate";
import type { DocumentServices } from "./documents/services";

/** Requests a minute of a credential without a limit of its own (decisions.md). */
export const DEFAULT_REQUESTS_PER_MINUTE = 300;

const MINUTE_MS = 60_000;

/**
 * Counts one request of a real credential on its sliding minute: 429
 * RATE_LIMITED with the time until it would be allowed when its limit
 * (its own, or the default) is reached.
 */
export async function enforceCredentialRateLimit(
  services: Pick<DocumentServices, "rateLimits" | "clock">,
  credential: Pick<Credential, "id" | "rateLimitPerMinute">,
): Promise<void> {
  const decision = await services.rateLimits.consume(
    `credential:${credential.id}`,
    "requests",
    services.clock.now(),
    [
      {
        limit: credential.rateLimitPerMinute ?? DEFAULT_REQUESTS_PER_MINUTE,
        windowMs: MINUTE_MS,
      },
    ],
  );
  if (!decision.allowed) {
    throw new DomainError("RATE_LIMITED", {
      retryAfterMs: decision.retryAfterMs,
    });
  }
}
