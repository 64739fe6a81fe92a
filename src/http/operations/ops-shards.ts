import { toIsoTime } from "../../clock";
import { openShards } from "../../db/client";
import {
  type RebalanceProgress,
  rebalanceJob,
} from "../../durable-objects/shard-rebalance";
import { notFound, ValidationError } from "../../errors";
import {
  OPS_ALWAYS,
  OPS_WITH_BODY,
  opsResponses,
  SUPPORT_SECRET,
} from "../../openapi/ops-responses";
import {
  rebalanceProgressSchema,
  rebalanceRequestSchema,
} from "../../schemas/ops";
import { opsBodyLimit } from "../body-limit";
import { requireSupport } from "../middleware/require-support";
import { defineOperation } from "../operation";

// The rebalance after adding shards (docs/scale.md "Adding shards"): a job
// in a Durable Object that goes on after the answer; these start it and
// read its progress.

const shown = (progress: RebalanceProgress) => ({
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

const startRebalanceOperation = defineOperation({
  method: "post",
  path: "/ops/v1/shards/rebalance",
  body: {
    schema: rebalanceRequestSchema,
    limit: opsBodyLimit,
    example: { from: 32 },
  },
  middleware: [requireSupport],
  handle: async (c, { body }) => {
    const shardCount = openShards(c.env).length;
    if (body.from >= shardCount) {
      throw new ValidationError([
        {
          field: "from",
          code: "INVALID_VALUE",
          message: `must be less than the ${shardCount} shards bound now`,
        },
      ]);
    }
    return c.json(
      shown(await rebalanceJob(c.env.REBALANCE).start(body.from)),
      202,
    );
  },
  doc: {
    operationId: "startRebalance",
    summary:
      "Start moving every row whose bucket routes to another shard since DB_{from} … were bound",
    description:
      "Runs in a Durable Object after the answer, while traffic goes on; poll GET for its progress. A pass already running is not restarted (its progress is answered); once done, a new pass checks every row again and moves what is left, nothing twice.",
    tags: ["shards"],
    security: SUPPORT_SECRET,
    responses: opsResponses(
      202,
      "The pass started, or the one running.",
      rebalanceProgressSchema,
      OPS_WITH_BODY,
    ),
  },
});

const rebalanceProgressOperation = defineOperation({
  method: "get",
  path: "/ops/v1/shards/rebalance",
  middleware: [requireSupport],
  handle: async (c) => {
    const progress = await rebalanceJob(c.env.REBALANCE).progress();
    if (!progress) throw notFound();
    return c.json(shown(progress));
  },
  doc: {
    operationId: "getRebalanceProgress",
    summary: "The progress of the latest rebalance pass",
    description: "404 before any pass was started.",
    tags: ["shards"],
    security: SUPPORT_SECRET,
    responses: opsResponses(
      200,
      "Its progress.",
      rebalanceProgressSchema,
      OPS_ALWAYS,
    ),
  },
});

export const opsShardOperations = [
  startRebalanceOperation,
  rebalanceProgressOperation,
];
