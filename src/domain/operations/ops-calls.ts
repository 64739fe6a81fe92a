import type { Clock } from "../../clock";
import { toIsoTime } from "../../clock";
import type { Database } from "../../db/client";
import {
  finishOpsCall,
  latestOpsCalls,
  recordOpsCall,
} from "../../db/ops-calls";
import { directoryShard } from "../shard-routing";

// The audit trail of the operations API, in the directory shard: a row when
// a call arrives (before it may change anything), its status when answered.

interface AuditServices {
  shards: readonly Database[];
  clock: Clock;
}

export interface OpsCall {
  requestId: string;
  operation: string;
  clientIp: string;
  /** The support keyring's version the secret matched; null when refused. */
  keyVersion: string | null;
}

/** Records a call as it arrives; the answer to write later. Throws 503 when it cannot be written. */
export async function openOpsCall(
  services: AuditServices,
  call: OpsCall,
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

/** Records a refused call with its answer. */
export async function refusedOpsCall(
  services: AuditServices,
  call: OpsCall,
  status: number,
): Promise<void> {
  const now = services.clock.now();
  await recordOpsCall(directoryShard(services.shards), {
    ...call,
    status,
    startedAt: now,
    finishedAt: now,
  });
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
