// The D1 queries of one cron invocation (Cloudflare allows 1,000), shared
// among its tasks. Each task stops at its own share, so that no backlog in
// one task starves another; scheduled.ts runs them in this order, what
// protects users first: unfinished deletions (a deleted document's list
// entry and PDF object), then unfinished issues (a committed document's list
// entry), corrections' reservations no attempt holds any more (a reference
// blocked), events whose announcement was lost and deliveries whose message
// was (a caller's webhooks), eFTI registrations the gate has not taken,
// the archiver, the events past their retention, the demo purge, the
// operations API's old calls, the export of the eFTI gates' audit trail. A batch counts
// each of its statements; a round is counted at its most before it is made.
// The 5 left over are a margin.
export const CRON_QUERY_LIMIT = 1000;
export const CRON_QUERY_SHARES = {
  staleDeletions: 150,
  orphanPdfs: 150,
  correctionReservations: 50,
  lostEvents: 35,
  lostDeliveries: 35,
  // One read a shard, as the events': 35 covers 32 shards a run.
  lostRegistrations: 35,
  // At 32 shards, 13 a shard: three rounds of 50 documents after the
  // summaries' delete, more than the busiest hour brings (docs/scale.md).
  archive: 420,
  eventPurge: 40,
  // Shard 0 alone: thirteen rounds of 50 documents a run.
  demoSessions: 65,
  opsCalls: 10,
  // A page of 5,000 rows a query: a day of up to 25,000 rows a run.
  gateCallExports: 5,
} as const;

/** What one round of a task costs in D1 queries, and how many rows it takes at most. */
export interface RoundCost {
  /** Queries made whatever is found (the read of the backlog). */
  look: number;
  /** Queries made once something is found, whatever its size. */
  fixed: number;
  /** Queries made for each row found, at most. */
  perRow: number;
  rows: number;
}

/** The D1 queries a cron task may still make in this invocation. */
export class QueryBudget {
  #left: number;
  #exhausted = false;

  constructor(queries: number) {
    this.#left = queries;
  }

  /**
   * Whether the task was refused queries it asked for: it stopped with work
   * left, or shards not looked at, for the next run (the cron's log says so).
   */
  get exhausted(): boolean {
    return this.#exhausted;
  }

  /** Whether `queries` more fit; if so they are counted as made. */
  take(queries: number): boolean {
    if (queries > this.#left) {
      this.#exhausted = true;
      return false;
    }
    this.#left -= queries;
    return true;
  }

  /** How many rows a round of `cost` may take: 0 when not even one fits. */
  rowsFor(cost: RoundCost): number {
    const left = this.#left - cost.look - cost.fixed;
    const rows =
      left < 0
        ? 0
        : cost.perRow === 0
          ? cost.rows
          : Math.min(cost.rows, Math.floor(left / cost.perRow));
    if (rows === 0) this.#exhausted = true;
    return rows;
  }

  /** Counts a round of `cost` that found `found` rows. */
  spend(cost: RoundCost, found: number): void {
    this.#left -=
      cost.look + (found === 0 ? 0 : cost.fixed + cost.perRow * found);
  }
}

/** What a round did: the rows it found, and how many of them it finished. */
export interface RoundResult {
  found: number;
  finished: number;
}

// The golden ratio's fraction: its multiples fall evenly over [0, 1) for any
// count of shards and any cron period, never cycling through a subset.
const GOLDEN_FRACTION = (Math.sqrt(5) - 1) / 2;

/**
 * `shards` in the order a run at `now` takes them: from a first shard that
 * moves on with every minute, so that over successive runs each shard comes
 * early in turn. Taken always from shard 0, a task whose share covers fewer
 * shards than there are (the reservations' 50 queries at 64 shards) would
 * never reach the last ones.
 */
export function inTurn<S>(shards: readonly S[], now: number): S[] {
  const minute = Math.floor(now / 60_000);
  const first = Math.floor(((minute * GOLDEN_FRACTION) % 1) * shards.length);
  return [...shards.slice(first), ...shards.slice(0, first)];
}

/**
 * Runs `round` on each of `shards` in turn (inTurn: as a run at `now` takes
 * them), up to `cost.rows` rows at a time, while the budget lasts: a shard
 * gets another round only while its last one was full and finished every
 * row, so that one shard's backlog (or a failing row) cannot take every
 * other shard's turn. The rows finished.
 */
export async function inRounds<S>(
  budget: QueryBudget,
  shards: readonly S[],
  now: number,
  cost: RoundCost,
  round: (shard: S, limit: number) => Promise<RoundResult>,
): Promise<number> {
  let finished = 0;
  let busy = inTurn(shards, now);
  while (busy.length > 0) {
    const next: S[] = [];
    for (const shard of busy) {
      const limit = budget.rowsFor(cost);
      if (limit === 0) return finished;
      const result = await round(shard, limit);
      budget.spend(cost, result.found);
      finished += result.finished;
      if (result.found === limit && result.finished === limit) next.push(shard);
    }
    busy = next;
  }
  return finished;
}
