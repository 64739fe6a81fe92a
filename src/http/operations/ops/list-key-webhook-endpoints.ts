import { realKey } from "../../../domain/events/home";
import { listEndpoints } from "../../../domain/webhooks/endpoints";
import { SUPPORT_SECRET } from "../../../openapi/security";
import { credentialIdPath } from "../../../schemas/ops";
import { webhookEndpointListSchema } from "../../../schemas/webhook-endpoint";
import { requireSupport } from "../../middleware/require-support";
import { defineOperation } from "../../operation";
import { OPS_ALWAYS, opsResponses } from "./ops-answers";

export const listKeyWebhookEndpointsOperation = defineOperation({
  method: "get",
  path: "/ops/v1/keys/{credential_id}/webhook-endpoints",
  params: credentialIdPath,
  middleware: [requireSupport],
  handle: async (c, { params }) =>
    c.json(await listEndpoints(c.var.services, realKey(params.credential_id))),
  doc: {
    operationId: "listKeyWebhookEndpoints",
    summary: "A key's webhook endpoints, revoked or not",
    description:
      'As the key itself lists them (`GET /api/v1/webhook-endpoints`), oldest first, without their secrets: a revoked key\'s are disabled, `disabled_reason: "revoked"`. An unknown credential has none.',
    tags: ["keys"],
    security: SUPPORT_SECRET,
    responses: opsResponses(
      200,
      "The endpoints, oldest first.",
      webhookEndpointListSchema,
      OPS_ALWAYS,
    ),
  },
});
