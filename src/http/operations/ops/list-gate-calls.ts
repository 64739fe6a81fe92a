import {
  GATE_REFUSALS_KEPT,
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
    description: `Every request of a gate, answered or refused, never removed: its operation (\`get_consignment\`, \`follow_up\`), its request id, the dataset id, the \`subsetId\` values it asked and the subsets its answer served, the gate (the GATE_KEYRING version its key matched; null for a refusal), its client IP, when it arrived and its status (null: its answer was never recorded). Refusals beyond ${GATE_REFUSALS_KEPT.limit} a minute from one network (429) are counted per network and minute in \`efti_gate_refusals\`, never a row each. \`limit\` requests a page; \`has_more\` says whether older ones follow, which \`starting_after\` with the last \`id\` of the page lists; \`dataset_id\` keeps one dataset's. The rows themselves, chained, are \`GET /ops/v1/efti/gate-calls/chain\`.`,
    tags: ["audit"],
    security: SUPPORT_SECRET,
    responses: opsResponses(200, "A page of requests.", gateCallListSchema, [
      ...OPS_ALWAYS,
      422,
    ]),
  },
});
