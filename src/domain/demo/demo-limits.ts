import { DomainError } from "../../errors";
import type { Services } from "../services";
import type { DemoConfig } from "./demo-config";
import { demoNetwork } from "./demo-network";

/** The counters of one demo caller's network (demo-network.ts). */
export type DemoCounter = "tokens" | "documents" | "requests";

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
  const { tokenLimits, documentLimits, requestLimits } = services.demo;
  const limits = {
    tokens: tokenLimits,
    documents: documentLimits,
    requests: requestLimits,
  }[counter];
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

/**
 * Counts a request of a demo token on its network's limits: every one on
 * `requests`, one that issues a document (`issuing`) on `documents` too, both
 * at once. When both refuse, the documents' refusal answers.
 */
export async function enforceDemoTokenLimits(
  services: Pick<Services, "rateLimits" | "clock" | "demo">,
  clientIp: string,
  issuing: boolean,
): Promise<void> {
  const counters: DemoCounter[] = issuing
    ? ["documents", "requests"]
    : ["requests"];
  const counts = await Promise.allSettled(
    counters.map((counter) =>
      enforceDemoRateLimit(services, clientIp, counter),
    ),
  );
  for (const count of counts) {
    if (count.status === "rejected") throw count.reason;
  }
}

/** Anything of the demo answers 503 DEMO_UNAVAILABLE while it is switched off. */
export function requireDemoEnabled(demo: DemoConfig): void {
  if (!demo.enabled) throw new DomainError("DEMO_UNAVAILABLE");
}
