import { createMiddleware } from "hono/factory";
import { presentedKey } from "../../domain/api-keys";
import { authenticate, type Credential } from "../../domain/authenticate";
import { forgetCaller } from "../../domain/credential-rate-limit";
import type { AuthenticatedEnv } from "../../env";
import { bearerToken } from "../bearer";
import { clientIp } from "../client-ip";
import { enforceCallerLimits, startCallerCounts } from "./caller-limits";

/**
 * Requires `Authorization: Bearer <key>`, puts the credential on the context
 * and applies the limits of every authenticated request, counted while the
 * key is checked when they can be (caller-limits.ts); the check's refusal
 * wins over the counts'. The handler runs only once the request is
 * admitted: a request over its limit reads, decrypts and writes nothing.
 */
const credentialRequired = (issuing: boolean) =>
  createMiddleware<AuthenticatedEnv>(async (c, next) => {
    const { services } = c.var;
    const key = await presentedKey(bearerToken(c.req.raw));
    const ip = clientIp(c.req.raw);
    const started = startCallerCounts(services, key, ip, issuing);
    let credential: Credential;
    try {
      credential = await authenticate(services, services.clock, key, ip);
    } catch (error) {
      forgetCaller(started.early);
      throw error;
    }
    c.set("credential", credential);
    await enforceCallerLimits(services, credential, started);
    await next();
  });

export const requireCredential = credentialRequired(false);

/**
 * On the routes that issue a document (create, correct, dry run): a demo
 * token's network may also ask for so many documents a minute and an hour.
 */
export const requireIssuingCredential = credentialRequired(true);
