import { DomainError } from "../../errors";
import type { Services } from "../services";
import type { DemoConfig } from "./demo-config";
import { demoNetwork } from "./demo-network";

/** The counters of one demo caller's network (demo-network.ts). */
export type DemoCounter = "tokens" | "documents";

/**
 * Counts one demo request of `clientIp`'s network on `counter`, within the
 * configured limits: 429 DEMO_RATE_LIMITED with the seconds until it would be allowed
 * when a limit is reached.
 */
export async function enforceDemoRateLimit(
  services: Pick<Services, "rateLimits" | "clock" | "demo">,
  clientIp: string,
  counter: DemoCounter,
): Promise<void> {
  const limits =
    counter === "tokens"
      ? services.demo.tokenLimits
      : services.demo.documentLimits;
  const decision = await services.rateLimits.consume(
    `demo-ip:${demoNetwork(clientIp)}`,
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

/** Anything of the demo answers 503 DEMO_UNAVAILABLE while it is switched off. */
export function requireDemoEnabled(demo: DemoConfig): void {
  if (!demo.enabled) throw new DomainError("DEMO_UNAVAILABLE");
}
