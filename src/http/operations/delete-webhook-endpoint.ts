import { deleteEndpoint } from "../../domain/webhooks/endpoints";
import { BEARER } from "../../openapi/security";
import { errorResponses } from "../error-responses";
import { defineOperation } from "../operation";
import {
  ENDPOINT_CODES,
  ENDPOINT_MIDDLEWARE,
  ONE_ENDPOINT,
  ONE_ENDPOINT_ERRORS,
  WEBHOOK_TAGS,
} from "./webhook-endpoint-answers";

export const deleteWebhookEndpointOperation = defineOperation({
  method: "delete",
  ...ONE_ENDPOINT,
  middleware: ENDPOINT_MIDDLEWARE,
  handle: async (c, { params }) => {
    await deleteEndpoint(c.var.services, c.var.credential, params.endpoint_id);
    return c.body(null, 204);
  },
  doc: {
    operationId: "deleteWebhookEndpoint",
    summary: "Delete a webhook endpoint",
    description:
      "No event is sent to it any more: its deliveries still pending are marked `failed` at once. Its events and their delivery history stay in the events API.",
    tags: WEBHOOK_TAGS,
    security: BEARER,
    responses: {
      204: { description: "Deleted." },
      ...errorResponses(ONE_ENDPOINT_ERRORS, { codes: ENDPOINT_CODES }),
    },
  },
});
