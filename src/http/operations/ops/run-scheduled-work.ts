import { runScheduledWork } from "../../../domain/scheduled-work";
import { SUPPORT_SECRET } from "../../../openapi/security";
import { scheduledWorkSchema } from "../../../schemas/ops";
import { requireSupport } from "../../middleware/require-support";
import { defineOperation } from "../../operation";
import { OPS_ALWAYS, opsResponses } from "./ops-answers";

export const runScheduledWorkOperation = defineOperation({
  method: "post",
  path: "/ops/v1/scheduled-work",
  middleware: [requireSupport],
  handle: async (c) => c.json(await runScheduledWork(c.var.services)),
  doc: {
    operationId: "runScheduledWork",
    summary: "Run the cron's work now",
    description:
      "What the cron of wrangler.toml runs every five minutes (docs/failures.md's safety nets: deletions finished, lost messages sent again, archiving, purges, the gates' trail exported), run once, at once: after an outage, to finish what it left without waiting for the next run, and by `npm start`, where wrangler does not run the cron. Each task works within its share of the run's queries and takes up where the last run stopped.",
    tags: ["scheduled"],
    security: SUPPORT_SECRET,
    responses: opsResponses(
      200,
      "What each task did (null: it failed, logged), and which ran out of their share.",
      scheduledWorkSchema,
      OPS_ALWAYS,
    ),
  },
});
