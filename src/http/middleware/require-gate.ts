import { createMiddleware } from "hono/factory";
import { configOf } from "../../config";
import {
  type GateCall,
  openGateCall,
  recordRefusal,
} from "../../domain/operations/gate-calls";
import { secretKeyVersion } from "../../domain/secret-key-version";
import type { AppEnv, GateEnv } from "../../env";
import { DomainError, domainErrorBehind, notFound } from "../../errors";
import { logFailure } from "../../failure-log";
import { inIpRanges } from "../../schemas/ip-range";
import type { GateOperation } from "../../schemas/ops";
import { bearerToken } from "../bearer";
import { clientIp } from "../client-ip";

/** The one log line of a refusal the trail does not keep (too many, or no limiter). */
function logRefusal(call: GateCall, status: number): void {
  console.log(
    JSON.stringify({
      event: "efti_gate_refused",
      request_id: call.requestId,
      dataset_id: call.datasetId.slice(0, 64),
      client_ip: call.clientIp,
      status,
    }),
  );
}

/**
 * A refusal (401, 403): a row of the audit trail while the caller's network
 * has had few, else 429 GATE_RATE_LIMITED, counted in its network's minute
 * and a log line.
 */
async function refuse(
  services: AppEnv["Variables"]["services"],
  call: GateCall,
  status: 401 | 403,
): Promise<never> {
  try {
    if (!(await recordRefusal(services, call, status))) {
      logRefusal(call, status);
    }
  } catch (error) {
    if (domainErrorBehind(error)?.code === "GATE_RATE_LIMITED") {
      logRefusal(call, 429);
    }
    throw error;
  }
  throw new DomainError(
    status === 403 ? "GATE_IP_NOT_ALLOWED" : "GATE_UNAUTHENTICATED",
  );
}

/**
 * Whether `request` came with the client certificate of fingerprint
 * `expected`, as verified by the zone's mutual TLS (API Shield). Cloudflare's
 * edge sets `request.cf`, which the edge Worker's hand-over passes on with
 * the request; no caller can write it.
 */
function presentsCertificate(request: Request, expected: string): boolean {
  const auth = (request.cf as IncomingRequestCfProperties | undefined)
    ?.tlsClientAuth;
  return (
    auth?.certVerified === "SUCCESS" && auth.certFingerprintSHA256 === expected
  );
}

/**
 * The gate of the eFTI platform interface (/efti/v0, docs/efti.md "Gates"):
 * none without GATE_KEYRING (404, like any unknown path); then the IP
 * allow-list (403), then a gate's key and, for a key version of
 * GATE_CLIENT_CERTIFICATES, its client certificate (401), each refusal a row of the audit
 * trail (beyond a network's limit, 429, a count and a log line); every request let in
 * recorded before it runs (no trail, no call: 503), its answer after, with the
 * subsets the handler served (`subsetsServed`). The key version matched
 * names the gate.
 */
export const requireGate = (operation: GateOperation) =>
  createMiddleware<GateEnv>(async (c, next) => {
    const { keyring, allowedIps, clientCertificates } = configOf(c.env).gate;
    if (!keyring) throw notFound();
    const { services } = c.var;
    const ip = clientIp(c.req.raw);
    const call: GateCall = {
      requestId: c.var.requestId,
      operation,
      gateRequestId:
        c.req.query("requestId") ?? c.req.header("X-Request-Id") ?? null,
      datasetId: c.req.param("datasetId") ?? "",
      subsets: c.req.queries("subsetId") ?? [],
      clientIp: ip,
    };
    if (allowedIps.length > 0 && !inIpRanges(allowedIps, ip)) {
      return refuse(services, call, 403);
    }
    const presented = bearerToken(c.req.raw);
    const gate =
      presented === null ? null : await secretKeyVersion(keyring, presented);
    if (gate === null) return refuse(services, call, 401);
    const certificate = clientCertificates[gate];
    if (certificate && !presentsCertificate(c.req.raw, certificate)) {
      return refuse(services, call, 401);
    }
    const answered = await openGateCall(services, { ...call, gate });
    c.set("gate", gate);
    c.set("gateRequestId", call.gateRequestId);
    await next();
    try {
      const status = c.res.status;
      await answered(
        status,
        status === 200 ? (c.var.subsetsServed ?? null) : null,
      );
    } catch (error) {
      // The request is done; the trail shows it arrived, not its answer.
      logFailure(
        { event: "efti_gate_call_unfinished", request_id: call.requestId },
        error,
      );
    }
  });
