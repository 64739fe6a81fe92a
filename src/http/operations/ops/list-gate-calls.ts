import {
  GATE_CALLS_KEPT_DAYS,
  gateCallPage,
} from "../../../domain/operations/gate-calls";
import { SUPPORT_SECRET } from "../../../openapi/security";
import {
  gateCallListQuerySchema,
  gateCallListSchema,
} from "../../../schemas/ops";
import { requireSupport } from "../../middleware/require-support";
import { defineOperation } from "../../operation";
import { OPS_ALWAYS, opsResponses } from "./ops-answers";

export const listGateCallsOperation = defineOperation({
  method: "get",
  path: "/ops/v1/efti/gate-calls",
  query: gateCallListQuerySchema,
  middleware: [requireSupport],
  handle: async (c, { query }) =>
    c.json(await gateCallPage(c.var.services, query)),
  doc: {
    operationId: "listGateCalls",
    summary:
      "The audit trail of the eFTI gates' interface (/efti/v0), newest first",
    description: `Every request of a gate, answered or refused, kept ${GATE_CALLS_KEPT_DAYS} days: its request id, the dataset id and the \`subsetId\` values it named, the gate (the GATE_KEYRING version its key matched; null for a refusal), its client IP, when it arrived and its status (null: its answer was never recorded). Refusals beyond a network's limit (429) are a log line, \`efti_gate_refused\`, never a row. \`limit\` requests a page; \`has_more\` says whether older ones follow, which \`starting_after\` with the last \`id\` of the page lists; \`dataset_id\` keeps one dataset's.`,
    tags: ["audit"],
    security: SUPPORT_SECRET,
    responses: opsResponses(200, "A page of requests.", gateCallListSchema, [
      ...OPS_ALWAYS,
      422,
    ]),
  },
});
