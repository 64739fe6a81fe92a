import type { Clock } from "../../clock";
import { toIsoTime } from "../../clock";
import type { Database } from "../../db/client";
import {
  appendGateCall,
  chainRows,
  chainTip,
  countRefusal,
  gateCallAnswers,
  gateCallWritten,
  listGateCalls,
} from "../../db/efti-gate-calls";
import type { EftiGateCallRow } from "../../db/schema";
import { DomainError } from "../../errors";
import type {
  GateCallChainPage,
  GateCallList,
  GateCallRecord,
  GateOperation,
} from "../../schemas/ops";
import type { AuditExportStore } from "../../storage/audit-export-store";
import type { QueryBudget } from "../cron-budget";
import { demoNetwork } from "../demo/demo-network";
import type { RateLimit, RateLimits } from "../rate-limits";
import { directoryShard } from "../shard-routing";
import { CHAIN_START, gateCallHash } from "./gate-call-chain";

// The audit trail of the eFTI gates' interface (docs/efti.md "Gates"), in
// the directory shard beside the operations API's, append-only and chained
// (gate-call-chain.ts): a request let in is a row when it arrives (before it
// may read or write anything) and another when answered; a refusal is one
// row. Never updated, never removed: the trail covers data gates may read
// for as long as they may read it.

/**
 * The refusals (401, 403) one network (an IPv4 address, an IPv6 /64) may
 * have written to the trail a row each: beyond them a refusal is 429, and
 * only counted in efti_gate_refusals, so that a flood of guesses writes a
 * bounded number of rows.
 */
export const GATE_REFUSALS_KEPT: RateLimit = { limit: 20, windowMs: 60_000 };

interface AuditServices {
  shards: readonly Database[];
  clock: Clock;
}

/** A gate's request as the trail records it. */
export interface GateCall {
  requestId: string;
  operation: GateOperation;
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
const MAX_SUBSETS_KEPT = 12;
const bounded = (text: string) => text.slice(0, MAX_KEPT);

/** The gate's own id of a request as the trail keeps it (a follow-up too). */
export const keptGateRequestId = (id: string | null): string | null =>
  id === null ? null : bounded(id);

/** The subsets asked, as the trail keeps them: split at commas, bounded. */
const keptSubsets = (asked: readonly string[]): string =>
  asked
    .flatMap((value) => value.split(","))
    .slice(0, MAX_SUBSETS_KEPT)
    .map(bounded)
    .join(",");

type Entry = NonNullable<EftiGateCallRow["entry"]>;
type Unchained = Omit<EftiGateCallRow, "id" | "previousHash" | "hash"> & {
  entry: Entry;
  operation: GateOperation;
};

const list = (text: string | null): string[] | null =>
  text === null ? null : text === "" ? [] : text.split(",");

/** A row as the chain hashes it, the operations API pages it and R2 keeps it. */
const record = (
  row: Unchained & { id: number; previousHash: string; hash: string },
): GateCallRecord => ({
  id: row.id,
  entry: row.entry,
  operation: row.operation,
  request_id: row.requestId,
  gate_request_id: row.gateRequestId,
  dataset_id: row.datasetId,
  subsets: list(row.subsets) ?? [],
  subsets_served: list(row.subsetsServed),
  gate: row.gate,
  client_ip: row.clientIp,
  status: row.status,
  started_at: toIsoTime(row.startedAt),
  finished_at: row.finishedAt === null ? null : toIsoTime(row.finishedAt),
  previous_hash: row.previousHash,
  hash: row.hash,
});

// Requests racing for the chain's end: each round one of them appends, the
// others wait a random while (up to 10 ms a round already lost) and retry.
const APPEND_ATTEMPTS = 24;
const raceBackoff = (attempt: number) =>
  new Promise((resolve) =>
    setTimeout(resolve, Math.random() * 10 * Math.min(attempt, 5)),
  );

/**
 * Appends `row` after the chain's last row, as read: when another request
 * appended first, reads again and retries; when the insert's answer is
 * lost, finds its own row by request id before retrying (never two).
 */
async function append(services: AuditServices, row: Unchained): Promise<void> {
  const db = directoryShard(services.shards);
  let failure: unknown = new Error("the gate's audit row was not chained");
  for (let attempt = 0; attempt < APPEND_ATTEMPTS; attempt++) {
    await raceBackoff(attempt);
    const previousHash = (await chainTip(db)) ?? CHAIN_START;
    const hash = await gateCallHash(
      record({ ...row, id: 0, previousHash, hash: "" }),
    );
    try {
      if (await appendGateCall(db, { ...row, previousHash, hash }, CHAIN_START))
        return;
    } catch (error) {
      if (await gateCallWritten(db, row.requestId, row.entry)) return;
      failure = error;
    }
  }
  throw failure;
}

const unchained = (call: GateCall, at: number) => ({
  requestId: call.requestId,
  operation: call.operation,
  gateRequestId: keptGateRequestId(call.gateRequestId),
  datasetId: bounded(call.datasetId),
  subsets: keptSubsets(call.subsets),
  clientIp: call.clientIp,
  startedAt: at,
});

/**
 * Records a request let in (`gate`: the key version it matched) as it
 * arrives; its answer (the status, the subsets served if any) to record
 * after it. Throws 503 when it cannot be written.
 */
export async function openGateCall(
  services: AuditServices,
  call: GateCall & { gate: string },
): Promise<
  (status: number, subsetsServed: readonly string[] | null) => Promise<void>
> {
  const arrived = {
    ...unchained(call, services.clock.now()),
    gate: call.gate,
    subsetsServed: null,
  };
  await append(services, {
    ...arrived,
    entry: "arrived",
    status: null,
    finishedAt: null,
  });
  return (status, subsetsServed) =>
    append(services, {
      ...arrived,
      entry: "answered",
      status,
      subsetsServed: subsetsServed === null ? null : subsetsServed.join(","),
      finishedAt: services.clock.now(),
    });
}

/**
 * Records a refusal (401, 403) with its status, a row of the trail while its
 * network has not had GATE_REFUSALS_KEPT of them in the window; beyond them
 * (or when the limiter cannot be reached), counted in its network's minute
 * instead. Beyond them, 429 GATE_RATE_LIMITED. False when it is not a row
 * of the trail (the caller logs it too).
 */
export async function recordRefusal(
  services: AuditServices & { rateLimits: RateLimits },
  call: GateCall,
  status: 401 | 403,
): Promise<boolean> {
  const now = services.clock.now();
  const network = demoNetwork(call.clientIp);
  let decision: Awaited<ReturnType<RateLimits["consume"]>> | null;
  try {
    decision = await services.rateLimits.consume(
      `gate-ip:${network}`,
      "refusals",
      now,
      [GATE_REFUSALS_KEPT],
    );
  } catch {
    decision = null;
  }
  if (decision?.allowed) {
    await append(services, {
      ...unchained(call, now),
      entry: "refused",
      gate: null,
      status,
      subsetsServed: null,
      finishedAt: now,
    });
    return true;
  }
  await countRefusal(directoryShard(services.shards), {
    network,
    minute: now - (now % 60_000),
    status,
  });
  if (decision) {
    throw new DomainError("GATE_RATE_LIMITED", {
      retryAfterMs: decision.retryAfterMs,
    });
  }
  return false;
}

/** A page of the trail, a request a row (its answer beside it), newest first, as the operations API shows it. */
export async function gateCallPage(
  services: AuditServices,
  query: { limit: number; starting_after?: number; dataset_id?: string },
): Promise<GateCallList> {
  const db = directoryShard(services.shards);
  const found = await listGateCalls(db, {
    limit: query.limit + 1,
    before: query.starting_after,
    datasetId: query.dataset_id,
  });
  const rows = found.slice(0, query.limit);
  const answers = new Map(
    (
      await gateCallAnswers(
        db,
        rows
          .filter((row) => row.entry === "arrived")
          .map((row) => row.requestId),
      )
    ).map((answer) => [answer.requestId, answer]),
  );
  return {
    data: rows.map((call) => {
      const answer = answers.get(call.requestId) ?? call;
      return {
        id: call.id,
        operation: call.operation,
        request_id: call.requestId,
        gate_request_id: call.gateRequestId,
        dataset_id: call.datasetId,
        subsets: list(call.subsets) ?? [],
        subsets_served: list(answer.subsetsServed),
        gate: call.gate,
        client_ip: call.clientIp,
        status: answer.status,
        started_at: toIsoTime(call.startedAt),
        finished_at:
          answer.finishedAt === null ? null : toIsoTime(answer.finishedAt),
      };
    }),
    has_more: found.length > query.limit,
  };
}

/** Rows of the chain as records, oldest first: what `chainRows` finds. */
const chained = (rows: EftiGateCallRow[]): GateCallRecord[] =>
  rows.flatMap((row) =>
    row.entry && row.operation && row.previousHash && row.hash
      ? [
          record({
            ...row,
            entry: row.entry,
            operation: row.operation,
            previousHash: row.previousHash,
            hash: row.hash,
          }),
        ]
      : [],
  );

/** A page of the chain, oldest first, as `npm run keys -- verify-audit` walks it. */
export async function gateCallChainPage(
  services: AuditServices,
  query: { limit: number; starting_after?: number },
): Promise<GateCallChainPage> {
  const rows = await chainRows(directoryShard(services.shards), {
    limit: query.limit + 1,
    after: query.starting_after,
  });
  return {
    data: chained(rows.slice(0, query.limit)),
    has_more: rows.length > query.limit,
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;
// A day is exported once the answers of its last requests are surely in.
const EXPORT_AFTER_MS = 5 * 60_000;
// The days looked at a run: a cron stopped a day or two still exports them.
const EXPORT_DAYS = 3;
const EXPORT_PAGE_ROWS = 5_000;

/**
 * Writes each complete day's rows of the chain (by when their request
 * arrived, UTC), as JSON lines of their records with their hashes, to the
 * object `YYYY-MM-DD.jsonl` of the audit exports, once: a day already
 * written is left as it is (rows are never changed, so a run that wrote it
 * wrote what this one would). Each page read is a query of `budget`; a day
 * that does not fit is written by a later run. The number of days written.
 */
export async function exportGateCalls(
  services: AuditServices & { auditExports: AuditExportStore },
  budget: QueryBudget,
): Promise<number> {
  const db = directoryShard(services.shards);
  const complete = services.clock.now() - EXPORT_AFTER_MS;
  const lastDay = complete - (complete % DAY_MS) - DAY_MS;
  let written = 0;
  for (let back = EXPORT_DAYS - 1; back >= 0; back--) {
    const day = lastDay - back * DAY_MS;
    const key = `${toIsoTime(day).slice(0, 10)}.jsonl`;
    if (await services.auditExports.has(key)) continue;
    const lines: string[] = [];
    for (let after: number | undefined, more = true; more; ) {
      if (!budget.take(1)) return written;
      const rows = await chainRows(db, {
        limit: EXPORT_PAGE_ROWS + 1,
        after,
        from: day,
        to: day + DAY_MS,
      });
      const page = rows.slice(0, EXPORT_PAGE_ROWS);
      lines.push(...chained(page).map((row) => `${JSON.stringify(row)}\n`));
      more = rows.length > EXPORT_PAGE_ROWS;
      after = page.at(-1)?.id;
    }
    if (await services.auditExports.putOnce(key, lines.join(""))) written++;
  }
  return written;
}
