import { rebalanceJob } from "../../../durable-objects/shard-rebalance";
import { notFound } from "../../../errors";
import { SUPPORT_SECRET } from "../../../openapi/security";
import { rebalanceProgressSchema } from "../../../schemas/ops";
import { requireSupport } from "../../middleware/require-support";
import { defineOperation } from "../../operation";
import { OPS_ALWAYS, opsResponses } from "./ops-answers";
import { rebalanceProgressBody } from "./rebalance-progress-body";

export const rebalanceProgressOperation = defineOperation({
  method: "get",
  path: "/ops/v1/shards/rebalance",
  middleware: [requireSupport],
  handle: async (c) => {
    const progress = await rebalanceJob(c.env.REBALANCE).progress();
    if (!progress) throw notFound();
    return c.json(rebalanceProgressBody(progress));
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
