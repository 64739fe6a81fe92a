import type { Clock } from "../../clock";
import type { Database } from "../../db/client";
import { type AgedTable, deleteRowsBefore } from "../../db/old-rows";
import { inRounds, type QueryBudget, type RoundCost } from "../cron-budget";
import { directoryShard } from "../shard-routing";

// A round: one statement that finds and removes the oldest rows.
const PRUNE_ROUND: RoundCost = { look: 1, fixed: 0, perRow: 0, rows: 500 };

/**
 * Removes the rows of an audit trail of the directory shard (the operations
 * API's calls) older than `keptDays`, in rounds while
 * `budget` lasts; the next run continues. The number removed.
 */
export const pruneTrail = (
  services: { shards: readonly Database[]; clock: Clock },
  budget: QueryBudget,
  trail: AgedTable,
  keptDays: number,
): Promise<number> =>
  inRounds(
    budget,
    [directoryShard(services.shards)],
    services.clock.now(),
    PRUNE_ROUND,
    async (db, limit) => {
      const removed = await deleteRowsBefore(
        db,
        trail,
        services.clock.now() - keptDays * 24 * 60 * 60 * 1000,
        limit,
      );
      return { found: removed, finished: removed };
    },
  );
