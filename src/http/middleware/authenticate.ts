import { createMiddleware } from "hono/factory";
import { presentedKey } from "../../domain/api-keys";
import { authenticate, type Credential } from "../../domain/authenticate";
import {
  forgetCaller,
  startRateCount,
} from "../../domain/credential-rate-limit";
import type { AuthenticatedEnv } from "../../env";
import { bearerToken } from "../bearer";
import { clientIp } from "../client-ip";
import { enforceCallerLimits } from "./caller-limits";

/**
 * Requires `Authorization: Bearer <key>`, puts the credential on the context
 * and applies the limits of every authenticated request. A key this isolate
 * knows from this IP has its request counted while it is checked (one round
 * trip instead of two); the check's refusal still wins over the count's.
 * `admitted` settles with the count: what a read records waits for it.
 */
export const requireCredential = createMiddleware<AuthenticatedEnv>(
  async (c, next) => {
    const { services } = c.var;
    const key = await presentedKey(bearerToken(c.req.raw));
    const ip = clientIp(c.req.raw);
    const early = startRateCount(services, key, ip);
    let credential: Credential;
    try {
      credential = await authenticate(services, services.clock, key, ip);
    } catch (error) {
      forgetCaller(early);
      throw error;
    }
    c.set("credential", credential);
    const limits = enforceCallerLimits(services, credential, early);
    c.set("admitted", limits);
    if (!isRead(c.req.method)) {
      await limits;
      await next();
      return;
    }
    // A read changes nothing the caller could see before its answer, so it
    // runs while its request is counted (a key's first request in this
    // isolate: one round trip fewer); a refused count still answers 429,
    // whatever the read answered (docs/api.md, Order of checks).
    limits.catch(() => undefined);
    const [counted] = await Promise.allSettled([limits, next()]);
    if (counted.status === "rejected") throw counted.reason;
  },
);

const isRead = (method: string): boolean =>
  method === "GET" || method === "HEAD";
