import { ApiError } from "../errors";
import type { Credential } from "./authenticate";
import type { DocumentServices } from "./documents/services";
import { retryAfterSeconds } from "./rate-limits";

/** Requests a minute of a credential without a limit of its own (decisions.md). */
export const DEFAULT_REQUESTS_PER_MINUTE = 300;

const MINUTE_MS = 60_000;

/**
 * Counts one request of a real credential on its sliding minute: 429
 * RATE_LIMITED with the seconds until it would be allowed when its limit
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
    const seconds = retryAfterSeconds(decision.retryAfterMs);
    throw ApiError.of(
      "RATE_LIMITED",
      `Too many requests with this API key; retry in ${seconds} seconds.`,
      { headers: { "Retry-After": String(seconds) } },
    );
  }
}
