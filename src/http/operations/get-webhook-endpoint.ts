import { getEndpoint } from "../../domain/webhooks/endpoints";
import { jsonResponse } from "../../openapi/responses";
import { BEARER } from "../../openapi/security";
import { webhookEndpointSchema } from "../../schemas/webhook-endpoint";
import { errorResponses } from "../error-responses";
import { defineOperation } from "../operation";
import {
  ENDPOINT_CODES,
  ENDPOINT_MIDDLEWARE,
  exampleEndpoint,
  ONE_ENDPOINT,
  ONE_ENDPOINT_ERRORS,
  WEBHOOK_TAGS,
} from "./webhook-endpoint-answers";

export const getWebhookEndpointOperation = defineOperation({
  method: "get",
  ...ONE_ENDPOINT,
  middleware: ENDPOINT_MIDDLEWARE,
  handle: async (c, { params }) =>
    c.json(
      await getEndpoint(c.var.services, c.var.credential, params.endpoint_id),
    ),
  doc: {
    operationId: "getWebhookEndpoint",
    summary: "Read a webhook endpoint",
    description:
      "Its URL, the events it wants, and whether it is enabled: `disabled_reason` says when the service disabled it after 3 days of failed deliveries, `failing_since` since when its deliveries fail. Never its secret. Another key's endpoint is the same 404 as an unknown one.",
    tags: WEBHOOK_TAGS,
    security: BEARER,
    responses: {
      200: jsonResponse(
        "The endpoint.",
        webhookEndpointSchema,
        exampleEndpoint,
      ),
      ...errorResponses(ONE_ENDPOINT_ERRORS, { codes: ENDPOINT_CODES }),
    },
  },
});
