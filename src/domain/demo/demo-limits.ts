import { ApiError } from "../../errors";
import type { DocumentServices } from "../documents/services";
import { type RateLimit, retryAfterSeconds } from "../rate-limits";

/** The counters of one demo IP. */
export type DemoCounter = "tokens" | "documents";

/**
 * Counts one demo request of an IP: 429 DEMO_RATE_LIMITED with the seconds
 * until it would be allowed when a limit is reached.
 */
export async function enforceDemoRateLimit(
  services: Pick<DocumentServices, "rateLimits" | "clock">,
  clientIp: string,
  counter: DemoCounter,
  limits: RateLimit[],
): Promise<void> {
  const decision = await services.rateLimits.consume(
    `demo-ip:${clientIp}`,
    counter,
    services.clock.now(),
    limits,
  );
  if (!decision.allowed) {
    const seconds = retryAfterSeconds(decision.retryAfterMs);
    throw ApiError.of(
      "DEMO_RATE_LIMITED",
      `Too many demo requests from this IP address; retry in ${seconds} seconds.`,
      { headers: { "Retry-After": String(seconds) } },
    );
  }
}

export const demoUnavailable = (): ApiError =>
  ApiError.of("DEMO_UNAVAILABLE", "The public demo is switched off.");

export const demoDocumentLimit = (limit: number): ApiError =>
  ApiError.of(
    "DEMO_DOCUMENT_LIMIT",
    `A demo session may issue ${limit} documents, corrections included; request a new demo token.`,
  );
