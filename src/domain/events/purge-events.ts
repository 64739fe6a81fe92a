import { purgeEventsBefore } from "../../db/event-purge";
import { inRounds, type QueryBudget, type RoundCost } from "../cron-budget";
import type { Services } from "../services";
import { EVENT_RETENTION_MS } from "./retention";

// A round: one batch of four deletes in a shard (outbox, events,
// deliveries, attempts), each of up to `rows` rows. The eFTI registrations
// stay as long as their document (docs/efti.md).
const ROUND: RoundCost = { look: 4, fixed: 0, perRow: 0, rows: 1000 };

/**
 * Removes the events, outbox rows, deliveries and attempts older than the
 * retention, in rounds over the shards while `budget` lasts (each run
 * starting at another shard); the next run continues. The most rows one
 * table lost.
 */
export function purgeOldEvents(
  services: Pick<Services, "shards" | "clock">,
  budget: QueryBudget,
): Promise<number> {
  const now = services.clock.now();
  return inRounds(budget, services.shards, now, ROUND, async (shard, limit) => {
    const removed = await purgeEventsBefore(
      shard,
      now - EVENT_RETENTION_MS,
      limit,
    );
    return { found: removed, finished: removed };
  });
}
