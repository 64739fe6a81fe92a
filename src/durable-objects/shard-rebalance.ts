import { DurableObject } from "cloudflare:workers";
import { openShards } from "../db/client";
import {
  type RebalanceCursor,
  rebalanceStep,
} from "../domain/operations/rebalance-shards";
import { logFailure } from "../failure-log";

// D1 allows 1,000 queries an invocation; an alarm is one, and a step sends
// a few. What is left of the budget, the next alarm does at once.
const QUERIES_PER_ALARM = 800;
// After a failed step (an outage, a lost answer): the step is redone.
const RETRY_MS = 5_000;

export interface RebalanceProgress {
  /** The shard count before the bindings were added, and after. */
  from: number;
  to: number;
  state: "running" | "done";
  /** Where the job is; null once done. */
  cursor: RebalanceCursor | null;
  /** Rows moved so far, per table (organizations: copies made). */
  moved: Record<string, number>;
  steps: number;
  startedAt: number;
  finishedAt: number | null;
  /** The last failure, retried; null after a step succeeds. */
  lastError: string | null;
}

const PROGRESS = "progress";

/**
 * The rebalance job (one object, named "rebalance"): an alarm loop that runs
 * the steps of src/domain/operations/rebalance-shards.ts and keeps its
 * cursor in storage after each one, so that a crash, a deploy or a failed
 * step resumes where it stopped; a step done twice moves nothing twice.
 * While a pass runs, an alarm is always set: a pass never stops in
 * "running" with nothing left to move it on.
 */
export class ShardRebalance extends DurableObject<Env> {
  /**
   * Starts a pass from `from` shards, unless one is running: its progress
   * then, with its alarm set again should it have been lost.
   */
  async start(from: number): Promise<RebalanceProgress> {
    const current = await this.progress();
    if (current?.state === "running") {
      if ((await this.ctx.storage.getAlarm()) === null) {
        await this.ctx.storage.setAlarm(Date.now());
      }
      return current;
    }
    const progress: RebalanceProgress = {
      from,
      to: openShards(this.env).length,
      state: "running",
      cursor: null,
      moved: {},
      steps: 0,
      startedAt: Date.now(),
      finishedAt: null,
      lastError: null,
    };
    await this.ctx.storage.put(PROGRESS, progress);
    await this.ctx.storage.setAlarm(Date.now());
    return progress;
  }

  /** The job's progress; null before any pass. */
  async progress(): Promise<RebalanceProgress | null> {
    return (await this.ctx.storage.get<RebalanceProgress>(PROGRESS)) ?? null;
  }

  override async alarm(): Promise<void> {
    // The retry, set before anything else: should this run end without
    // setting the next alarm (an exception, a deploy, a limit), it resumes.
    await this.ctx.storage.setAlarm(Date.now() + RETRY_MS);
    const progress = await this.progress();
    if (progress?.state !== "running") {
      await this.ctx.storage.deleteAlarm();
      return;
    }
    try {
      await this.run(progress);
    } catch (error) {
      logFailure({ event: "rebalance_step_failed" }, error);
      progress.lastError =
        error instanceof Error ? error.message : String(error);
      await this.ctx.storage.put(PROGRESS, progress);
      await this.ctx.storage.setAlarm(Date.now() + RETRY_MS);
    }
  }

  /** Steps until the pass is done or this alarm's budget is spent, saving the progress after each. */
  private async run(progress: RebalanceProgress): Promise<void> {
    const shards = openShards(this.env);
    let queries = 0;
    while (queries < QUERIES_PER_ALARM) {
      const step = await rebalanceStep(shards, progress.from, progress.cursor);
      for (const refusal of step.refused) {
        logFailure({ event: "rebalance_page_shrunk" }, refusal);
      }
      queries += step.queries;
      progress.moved[step.table] =
        (progress.moved[step.table] ?? 0) + step.moved;
      progress.steps += 1;
      progress.cursor = step.next;
      progress.lastError = null;
      if (progress.cursor === null) {
        progress.state = "done";
        progress.finishedAt = Date.now();
        await this.ctx.storage.put(PROGRESS, progress);
        await this.ctx.storage.deleteAlarm();
        return;
      }
      await this.ctx.storage.put(PROGRESS, progress);
    }
    await this.ctx.storage.setAlarm(Date.now());
  }
}

/** The one rebalance job of a deployment. */
export const rebalanceJob = (
  namespace: DurableObjectNamespace<ShardRebalance>,
): DurableObjectStub<ShardRebalance> =>
  namespace.get(namespace.idFromName("rebalance"));
