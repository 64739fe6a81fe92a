import {
  latestCalls,
  OPS_CALLS_KEPT_DAYS,
} from "../../../domain/operations/ops-calls";
import { SUPPORT_SECRET } from "../../../openapi/security";
import { opsCallsSchema } from "../../../schemas/ops";
import { requireSupport } from "../../middleware/require-support";
import { defineOperation } from "../../operation";
import { OPS_ALWAYS, opsResponses } from "./ops-answers";

/** How many calls of the operations API its trail shows. */
const LATEST_CALLS = 200;

export const listOpsCallsOperation = defineOperation({
  method: "get",
  path: "/ops/v1/calls",
  middleware: [requireSupport],
  handle: async (c) => c.json(await latestCalls(c.var.services, LATEST_CALLS)),
  doc: {
    operationId: "listOpsCalls",
    summary: `The audit trail of this API: its latest ${LATEST_CALLS} calls, newest first`,
    description: `The calls let in, kept ${OPS_CALLS_KEPT_DAYS} days; a refused one (401, 403) is a log line, \`ops_call_refused\`, never a row. \`status\` null: the call's answer was never recorded (lost, or the Worker stopped); \`key_version\` null: a refusal written before refusals became log lines.`,
    tags: ["audit"],
    security: SUPPORT_SECRET,
    responses: opsResponses(200, "The calls.", opsCallsSchema, OPS_ALWAYS),
  },
});
