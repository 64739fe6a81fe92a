import {
  checkRebalanceFrom,
  checkRunningPass,
} from "../../../domain/operations/rebalance-shards";
import { rebalanceJob } from "../../../durable-objects/shard-rebalance";
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
    checkRebalanceFrom(body.from, c.var.services);
    const progress = await rebalanceJob(c.env.REBALANCE).start(body.from);
    checkRunningPass(progress, body.from, c.var.services);
    return c.json(rebalanceProgressBody(progress), 202);
  },
  doc: {
    operationId: "startRebalance",
    summary:
      "Start moving every row whose bucket routes to another shard since DB_{from} … were bound",
    description:
      "Runs in a Durable Object after the answer, while traffic goes on; poll GET for its progress. `from` must be `SHARDS_BEFORE`, the shard count the deployment still finds unmoved rows in, and less than the shards bound now (422 otherwise, and while a pass for other counts runs). A pass already running is not restarted (its progress is answered, its alarm set again if it was lost); once done, a new pass checks every row again and moves what is left, nothing twice.",
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
