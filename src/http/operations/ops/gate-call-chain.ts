import { gateCallChainPage } from "../../../domain/operations/gate-calls";
import { SUPPORT_SECRET } from "../../../openapi/security";
import {
  gateCallChainPageSchema,
  gateCallChainQuerySchema,
} from "../../../schemas/ops";
import { requireSupport } from "../../middleware/require-support";
import { defineOperation } from "../../operation";
import { OPS_ALWAYS, opsResponses } from "./ops-answers";

export const gateCallChainOperation = defineOperation({
  method: "get",
  path: "/ops/v1/efti/gate-calls/chain",
  query: gateCallChainQuerySchema,
  middleware: [requireSupport],
  handle: async (c, { query }) =>
    c.json(await gateCallChainPage(c.var.services, query)),
  doc: {
    operationId: "gateCallChain",
    summary:
      "The rows of the eFTI gates' audit trail with their hashes, oldest first",
    description:
      'Every row of the chained trail as it is stored and hashed (docs/efti.md "Audit trail"): a request\'s arrival and its answer are two rows, a refusal one; each names the `hash` of the row before it (`previous_hash`, 64 zeros for the first) and carries its own, SHA-256 of its fields. `npm run keys -- verify-audit` walks it and names the first broken link. `limit` rows a page; `has_more` says whether newer ones follow, which `starting_after` with the last `id` of the page lists.',
    tags: ["audit"],
    security: SUPPORT_SECRET,
    responses: opsResponses(
      200,
      "A page of the chain.",
      gateCallChainPageSchema,
      [...OPS_ALWAYS, 422],
    ),
  },
});
