import { upgradeShardsStep } from "../../../domain/operations/upgrade-shards";
import { SUPPORT_SECRET } from "../../../openapi/security";
import {
  upgradeStepRequestSchema,
  upgradeStepSchema,
} from "../../../schemas/ops";
import { opsBodyLimit } from "../../body-limit";
import { requireSupport } from "../../middleware/require-support";
import { defineOperation } from "../../operation";
import { OPS_WITH_BODY, opsResponses } from "./ops-answers";

export const upgradeShardsOperation = defineOperation({
  method: "post",
  path: "/ops/v1/shards/upgrade",
  body: {
    schema: upgradeStepRequestSchema,
    limit: opsBodyLimit,
    examples: { first: { summary: "The first page", value: { cursor: null } } },
  },
  middleware: [requireSupport],
  handle: async (c, { body }) =>
    c.json(await upgradeShardsStep(c.var.services.shards, body.cursor)),
  doc: {
    operationId: "upgradeShards",
    summary:
      "Move one page of the rows a single database left in DB_0 to their shards",
    description:
      "Call with `cursor` null, then with each answer's `next` until it is null. Stopped at any point, calling again from the last cursor (or from null) finishes the job; once done, it moves nothing.",
    tags: ["shards"],
    security: SUPPORT_SECRET,
    responses: opsResponses(
      200,
      "What this call moved, and where the next one starts.",
      upgradeStepSchema,
      OPS_WITH_BODY,
    ),
  },
});
