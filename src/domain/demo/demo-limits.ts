import { DomainError } from "../../errors";
import type { RateLimit } from "../rate-limits";
import type { Services } from "../services";

/** The counters of one demo IP. */
export type DemoCounter = "tokens" | "documents";

/**
 * Counts one demo request of an IP: 429 DEMO_RATE_LIMITED with the seconds
 * until it would be allowed when a limit is reached.
 */
export async function enforceDemoRateLimit(
  services: Pick<Services, "rateLimits" | "clock">,
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
    throw new DomainError("DEMO_RATE_LIMITED", {
      retryAfterMs: decision.retryAfterMs,
    });
  }
}

export const demoUnavailable = (): DomainError =>
  new DomainError("DEMO_UNAVAILABLE");
