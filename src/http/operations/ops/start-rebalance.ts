import { openShards } from "../../../db/client";
import { rebalanceJob } from "../../../durable-objects/shard-rebalance";
import { ValidationError } from "../../../errors";
import { SUPPORT_SECRET } from "../../../openapi/security";
import {
  rebalanceProgressSchema,
  rebalanceRequestSchema,
} from "../../../schemas/ops";
import { opsBodyLimit } from "../../body-limit";
import { requireSupport } from "../../middleware/require-support";
import { defineOperation } from "../../operation";
import { OPS_WITH_BODY, opsResponses } from "./ops-answers";
import { rebalanceProgressBody } from "./rebalance-progress-body";

// The rebalance after adding shards (docs/scale.md "Adding shards"): a job
// in a Durable Object that goes on after the answer.

export const startRebalanceOperation = defineOperation({
  method: "post",
  path: "/ops/v1/shards/rebalance",
  body: {
    schema: rebalanceRequestSchema,
    limit: opsBodyLimit,
    examples: {
      from32: { summary: "After binding DB_32 and up", value: { from: 32 } },
    },
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
      rebalanceProgressBody(
        await rebalanceJob(c.env.REBALANCE).start(body.from),
      ),
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
