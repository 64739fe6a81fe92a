import { createMiddleware } from "hono/factory";
import { configOf } from "../../config";
import { type OpsCall, openOpsCall } from "../../domain/operations/ops-calls";
import { secretKeyVersion } from "../../domain/secret-key-version";
import type { AppEnv } from "../../env";
import { DomainError, notFound } from "../../errors";
import { logFailure } from "../../failure-log";
import { inIpRanges } from "../../schemas/ip-range";
import { bearerToken } from "../bearer";
import { clientIp } from "../client-ip";

/**
 * A refused call (401, 403) is one log line, never a row: anyone may send
 * one, and a row each would let a flood of guesses write to the directory
 * shard. The line holds what the row held but the key version (none).
 */
function logRefusal(call: OpsCall, status: number): void {
  console.log(
    JSON.stringify({
      event: "ops_call_refused",
      request_id: call.requestId,
      operation: call.operation,
      client_ip: call.clientIp,
      status,
    }),
  );
}

/**
 * The gate of an operation of the operations API (docs/operations.md): none
 * without SUPPORT_KEYRING (404, like any unknown path); then the IP allow-list
 * (403), then the support secret (401), each refusal a log line and no
 * write; every call let in recorded in the audit trail before it runs (no
 * trail, no call: 503), its answer after.
 */
export const requireSupport = createMiddleware<AppEnv>(async (c, next) => {
  const { supportKeyring, allowedIps } = configOf(c.env).ops;
  if (!supportKeyring) throw notFound();
  const { services } = c.var;
  const ip = clientIp(c.req.raw);
  const call: OpsCall = {
    requestId: c.var.requestId,
    // The route as registered (`POST /ops/v1/keys`), never the raw URL.
    operation: `${c.req.method} ${c.req.routePath}`,
    clientIp: ip,
  };
  if (allowedIps.length > 0 && !inIpRanges(allowedIps, ip)) {
    logRefusal(call, 403);
    throw new DomainError("OPS_IP_NOT_ALLOWED");
  }
  const presented = bearerToken(c.req.raw);
  const keyVersion =
    presented === null
      ? null
      : await secretKeyVersion(supportKeyring, presented);
  if (keyVersion === null) {
    logRefusal(call, 401);
    throw new DomainError("OPS_UNAUTHENTICATED");
  }
  const answered = await openOpsCall(services, { ...call, keyVersion });
  await next();
  try {
    await answered(c.res.status);
  } catch (error) {
    // The call is done; its row keeps a null status: answer unknown.
    logFailure(
      { event: "ops_call_unfinished", request_id: call.requestId },
      error,
    );
  }
});
