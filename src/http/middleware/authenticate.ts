import { createMiddleware } from "hono/factory";
import { presentedKey } from "../../domain/api-keys";
import { authenticate, type Credential } from "../../domain/authenticate";
import {
  forgetCaller,
  startRateCount,
} from "../../domain/credential-rate-limit";
import { enforceDemoRateLimit } from "../../domain/demo/demo-limits";
import type { AuthenticatedEnv } from "../../env";
import { bearerToken } from "../bearer";
import { clientIp } from "../client-ip";
import { enforceCallerLimits } from "./caller-limits";

/**
 * Requires `Authorization: Bearer <key>`, puts the credential on the context
 * and applies the limits of every authenticated request. A key this isolate
 * knows from this IP has its request counted while it is checked (one round
 * trip instead of two), and so is the IP of a demo token asking for a
 * document (`issuing`); the check's refusal still wins over the counts'.
 * `admitted` settles with the counts: what a read records waits for it.
 */
const credentialRequired = (issuing: boolean) =>
  createMiddleware<AuthenticatedEnv>(async (c, next) => {
    const { services } = c.var;
    const key = await presentedKey(bearerToken(c.req.raw));
    const ip = clientIp(c.req.raw);
    const early = startRateCount(services, key, ip);
    const demoCount =
      issuing && key?.environment === "demo" && services.demo.enabled
        ? enforceDemoRateLimit(services, ip, "documents")
        : null;
    demoCount?.catch(() => undefined);
    let credential: Credential;
    try {
      credential = await authenticate(services, services.clock, key, ip);
    } catch (error) {
      forgetCaller(early);
      throw error;
    }
    c.set("credential", credential);
    const limits = enforceCallerLimits(services, credential, early).then(
      () => demoCount ?? undefined,
    );
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
  });

export const requireCredential = credentialRequired(false);

/**
 * On the routes that issue a document (create, correct): a demo token's IP
 * may also ask for so many documents a minute and an hour.
 */
export const requireIssuingCredential = credentialRequired(true);

const isRead = (method: string): boolean =>
  method === "GET" || method === "HEAD";
