import type { Clock } from "../../clock";
import { toIsoTime } from "../../clock";
import type { Database } from "../../db/client";
import {
  finishGateCall,
  listGateCalls,
  recordGateCall,
} from "../../db/efti-gate-calls";
import { DomainError } from "../../errors";
import type { GateCallList } from "../../schemas/ops";
import type { QueryBudget } from "../cron-budget";
import { demoNetwork } from "../demo/demo-network";
import type { RateLimit, RateLimits } from "../rate-limits";
import { directoryShard } from "../shard-routing";
import { pruneTrail } from "./prune-trail";

// The audit trail of the eFTI gates' interface (docs/efti.md "Gates"), in
// the directory shard beside the operations API's: every request, answered
// or refused, a row when it arrives (before it may read or write anything),
// its status when answered; kept GATE_CALLS_KEPT_DAYS days.

/** How long a gate's request stays in the trail (docs/efti.md): two years. */
export const GATE_CALLS_KEPT_DAYS = 2 * 365;

/**
 * The refusals (401, 403) one network (an IPv4 address, an IPv6 /64) may
 * have written to the trail: beyond them a refusal is 429 and a log line
 * only, so that a flood of guesses cannot write without bound.
 */
export const GATE_REFUSALS_KEPT: RateLimit = { limit: 20, windowMs: 60_000 };

interface AuditServices {
  shards: readonly Database[];
  clock: Clock;
}

/** A gate's request as the trail records it. */
export interface GateCall {
  requestId: string;
  /** The gate's own id of the request, as it sent it, if it did. */
  gateRequestId: string | null;
  /** As the path gives it (at most 64 characters kept). */
  datasetId: string;
  /** The `subsetId` values as the query gives them, in order. */
  subsets: readonly string[];
  clientIp: string;
}

// The trail keeps what a request names, bounded: a path or query of any
// length is a refusal's, and must not grow a row.
const MAX_KEPT = 64;
const bounded = (text: string) => text.slice(0, MAX_KEPT);

/** The gate's own id of a request as the trail keeps it (a follow-up too). */
export const keptGateRequestId = (id: string | null): string | null =>
  id === null ? null : bounded(id);

const row = (call: GateCall, at: number) => ({
  requestId: call.requestId,
  gateRequestId: keptGateRequestId(call.gateRequestId),
  datasetId: bounded(call.datasetId),
  subsets: call.subsets.map(bounded).slice(0, 12).join(","),
  clientIp: call.clientIp,
  startedAt: at,
});

/**
 * Records a request let in (`gate`: the key version it matched) as it
 * arrives; the answer to write later. Throws 503 when it cannot be written.
 */
export async function openGateCall(
  services: AuditServices,
  call: GateCall & { gate: string },
): Promise<(status: number) => Promise<void>> {
  const db = directoryShard(services.shards);
  const id = await recordGateCall(db, {
    ...row(call, services.clock.now()),
    gate: call.gate,
    status: null,
    finishedAt: null,
  });
  return (status) =>
    finishGateCall(db, id, { status, finishedAt: services.clock.now() });
}

/**
 * Records a refusal (401, 403) with its status, while its network has not
 * had GATE_REFUSALS_KEPT refusals recorded in the window; beyond them, 429
 * GATE_RATE_LIMITED, which the caller logs instead. A limiter that cannot be
 * reached records nothing either (the refusal is then a log line too).
 */
export async function recordRefusal(
  services: AuditServices & { rateLimits: RateLimits },
  call: GateCall,
  status: 401 | 403,
): Promise<boolean> {
  const now = services.clock.now();
  let decision: Awaited<ReturnType<RateLimits["consume"]>>;
  try {
    decision = await services.rateLimits.consume(
      `gate-ip:${demoNetwork(call.clientIp)}`,
      "refusals",
      now,
      [GATE_REFUSALS_KEPT],
    );
  } catch {
    return false;
  }
  if (!decision.allowed) {
    throw new DomainError("GATE_RATE_LIMITED", {
      retryAfterMs: decision.retryAfterMs,
    });
  }
  await recordGateCall(directoryShard(services.shards), {
    ...row(call, now),
    gate: null,
    status,
    finishedAt: now,
  });
  return true;
}

/** A page of the trail, newest first, as the operations API shows it. */
export async function gateCallPage(
  services: AuditServices,
  query: { limit: number; starting_after?: number; dataset_id?: string },
): Promise<GateCallList> {
  const rows = await listGateCalls(directoryShard(services.shards), {
    limit: query.limit + 1,
    before: query.starting_after,
    datasetId: query.dataset_id,
  });
  return {
    data: rows.slice(0, query.limit).map((call) => ({
      id: call.id,
      request_id: call.requestId,
      gate_request_id: call.gateRequestId,
      dataset_id: call.datasetId,
      subsets: call.subsets === "" ? [] : call.subsets.split(","),
      gate: call.gate,
      client_ip: call.clientIp,
      status: call.status,
      started_at: toIsoTime(call.startedAt),
      finished_at: call.finishedAt === null ? null : toIsoTime(call.finishedAt),
    })),
    has_more: rows.length > query.limit,
  };
}

/** Removes the requests older than GATE_CALLS_KEPT_DAYS (pruneTrail). */
export const pruneGateCalls = (
  services: AuditServices,
  budget: QueryBudget,
): Promise<number> =>
  pruneTrail(services, budget, "efti_gate_calls", GATE_CALLS_KEPT_DAYS);
