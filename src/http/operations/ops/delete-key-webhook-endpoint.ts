import { realKey } from "../../../domain/events/home";
import { deleteEndpoint } from "../../../domain/webhooks/endpoints";
import { SUPPORT_SECRET } from "../../../openapi/security";
import { credentialEndpointPath } from "../../../schemas/ops";
import { errorResponses } from "../../error-responses";
import { requireSupport } from "../../middleware/require-support";
import { defineOperation } from "../../operation";
import { OPS_ALWAYS } from "./ops-answers";

export const deleteKeyWebhookEndpointOperation = defineOperation({
  method: "delete",
  path: "/ops/v1/keys/{credential_id}/webhook-endpoints/{endpoint_id}",
  params: credentialEndpointPath,
  middleware: [requireSupport],
  handle: async (c, { params }) => {
    await deleteEndpoint(
      c.var.services,
      realKey(params.credential_id),
      params.endpoint_id,
    );
    return c.body(null, 204);
  },
  doc: {
    operationId: "deleteKeyWebhookEndpoint",
    summary: "Delete a key's webhook endpoint, revoked or not",
    description:
      "As the key itself deletes it (`DELETE /api/v1/webhook-endpoints/{endpoint_id}`), which a revoked key cannot: its deliveries still pending are marked `failed`, its events and their history stay. 404 when the credential has no endpoint of that id.",
    tags: ["keys"],
    security: SUPPORT_SECRET,
    responses: {
      204: { description: "Deleted." },
      ...errorResponses(OPS_ALWAYS, { api: "ops" }),
    },
  },
});
