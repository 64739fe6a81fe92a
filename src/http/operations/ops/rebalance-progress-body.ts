import { toIsoTime } from "../../../clock";
import type { RebalanceProgress } from "../../../durable-objects/shard-rebalance";

/** A rebalance pass's progress as the operations API answers it. */
export const rebalanceProgressBody = (progress: RebalanceProgress) => ({
  from: progress.from,
  to: progress.to,
  state: progress.state,
  cursor: progress.cursor,
  moved: progress.moved,
  steps: progress.steps,
  started_at: toIsoTime(progress.startedAt),
  finished_at:
    progress.finishedAt === null ? null : toIsoTime(progress.finishedAt),
  last_error: progress.lastError,
});
