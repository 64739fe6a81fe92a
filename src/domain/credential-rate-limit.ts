import { DomainError } from "../errors";
import type { PresentedKey } from "./api-keys";
import type { Credential } from "./authenticate";
import type { RateDecision } from "./rate-limits";
import type { Services } from "./services";

/** Requests a minute of a credential without a limit of its own (docs/api.md, Rate limits). */
export const DEFAULT_REQUESTS_PER_MINUTE = 300;

const MINUTE_MS = 60_000;

// Callers one isolate remembers: far more than the keys that call one
// Worker instance at a time; the oldest is forgotten first.
const REMEMBERED_CALLERS = 4096;

type RateServices = Pick<Services, "rateLimits" | "clock">;

/** What a credential's requests count against: its counter and its limit. */
type RateTerms = Pick<Credential, "id" | "rateLimitPerMinute">;

/**
 * Real keys this isolate saw pass authentication, by the key's hash and the
 * caller's IP: the terms their next request will be counted on, so that the
 * count can run while the key is checked again (in parallel, one round trip
 * fewer). Only a guess to
 * start early: every request is authenticated, and its count is made again
 * on the credential's actual terms when they differ.
 */
const knownCallers = new Map<string, RateTerms>();

/** A request's place among the known callers, and the count started for it. */
export interface EarlyRateCount {
  caller: string;
  started: { terms: RateTerms; decision: Promise<RateDecision> } | null;
}

const consume = (services: RateServices, terms: RateTerms) =>
  services.rateLimits.consume(
    `credential:${terms.id}`,
    "requests",
    services.clock.now(),
    [
      {
        limit: terms.rateLimitPerMinute ?? DEFAULT_REQUESTS_PER_MINUTE,
        windowMs: MINUTE_MS,
      },
    ],
  );

/**
 * Before authentication: counts the request of a real key on the terms it
 * had the last time it came from this IP, if this isolate remembers it. An
 * unknown key or one from another IP starts nothing, so that no request
 * counts against a budget its key may not spend; a demo token has no count
 * of its own (its network's limits count it: demo-limits.ts).
 */
export function startRateCount(
  services: RateServices,
  key: PresentedKey | null,
  ip: string,
): EarlyRateCount | null {
  if (key === null || key.environment === "demo") return null;
  const caller = `${key.keyHash} ${ip}`;
  const terms = knownCallers.get(caller);
  if (!terms) return { caller, started: null };
  const decision = consume(services, terms);
  // Looked at only once the key passed: a 401 or 403 wins over a 429 or 503.
  decision.catch(() => undefined);
  return { caller, started: { terms, decision } };
}

/**
 * Authentication refused the request: its caller is forgotten, so that its
 * next request counts nothing before the key is checked.
 */
export function forgetCaller(count: EarlyRateCount | null): void {
  if (count) knownCallers.delete(count.caller);
}

/**
 * Counts one request of a real credential on its sliding minute: 429
 * RATE_LIMITED with the time until it would be allowed when its limit
 * (its own, or the default) is reached. A count started early on the same
 * terms is this one; on other terms (the credential's limit changed) the
 * request is counted again on its own.
 */
export async function enforceCredentialRateLimit(
  services: RateServices,
  credential: RateTerms,
  early: EarlyRateCount | null = null,
): Promise<void> {
  const terms = {
    id: credential.id,
    rateLimitPerMinute: credential.rateLimitPerMinute,
  };
  const started = early?.started;
  const decision =
    started &&
    started.terms.id === terms.id &&
    started.terms.rateLimitPerMinute === terms.rateLimitPerMinute
      ? await started.decision
      : await consume(services, terms);
  if (early) remember(early.caller, terms);
  if (!decision.allowed) {
    throw new DomainError("RATE_LIMITED", {
      retryAfterMs: decision.retryAfterMs,
    });
  }
}

function remember(caller: string, terms: RateTerms): void {
  knownCallers.delete(caller);
  knownCallers.set(caller, terms);
  if (knownCallers.size > REMEMBERED_CALLERS) {
    const [oldest] = knownCallers.keys();
    if (oldest !== undefined) knownCallers.delete(oldest);
  }
}
