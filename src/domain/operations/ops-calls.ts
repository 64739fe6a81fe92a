import type { Clock } from "../../clock";
import { toIsoTime } from "../../clock";
import type { Database } from "../../db/client";
import {
  finishOpsCall,
  latestOpsCalls,
  recordOpsCall,
} from "../../db/ops-calls";
import type { QueryBudget } from "../cron-budget";
import { directoryShard } from "../shard-routing";
import { pruneTrail } from "./prune-trail";

// The audit trail of the operations API, in the directory shard: a row when
// a call with the support secret arrives (before it may change anything),
// its status when answered; kept OPS_CALLS_KEPT_DAYS days.

/** How long a call stays in the trail (docs/operations.md): a quarter's audits. */
export const OPS_CALLS_KEPT_DAYS = 90;

interface AuditServices {
  shards: readonly Database[];
  clock: Clock;
}

export interface OpsCall {
  requestId: string;
  operation: string;
  clientIp: string;
}

/** Records a call as it arrives; the answer to write later. Throws 503 when it cannot be written. */
export async function openOpsCall(
  services: AuditServices,
  call: OpsCall & { keyVersion: string },
): Promise<(status: number) => Promise<void>> {
  const db = directoryShard(services.shards);
  const id = await recordOpsCall(db, {
    ...call,
    status: null,
    startedAt: services.clock.now(),
    finishedAt: null,
  });
  return (status) =>
    finishOpsCall(db, id, { status, finishedAt: services.clock.now() });
}

/** The latest calls, newest first, as the operations API shows them. */
export async function latestCalls(services: AuditServices, limit: number) {
  const rows = await latestOpsCalls(directoryShard(services.shards), limit);
  return rows.map((row) => ({
    request_id: row.requestId,
    operation: row.operation,
    client_ip: row.clientIp,
    key_version: row.keyVersion,
    status: row.status,
    started_at: toIsoTime(row.startedAt),
    finished_at: row.finishedAt === null ? null : toIsoTime(row.finishedAt),
  }));
}

/** Removes the calls older than OPS_CALLS_KEPT_DAYS (pruneTrail). */
export const pruneOpsCalls = (
  services: AuditServices,
  budget: QueryBudget,
): Promise<number> =>
  pruneTrail(services, budget, "ops_calls", OPS_CALLS_KEPT_DAYS);
