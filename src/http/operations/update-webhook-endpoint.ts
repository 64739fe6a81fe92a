import { updateEndpoint } from "../../domain/webhooks/endpoints";
import { jsonResponse } from "../../openapi/responses";
import { BEARER } from "../../openapi/security";
import {
  updateWebhookEndpointSchema,
  webhookEndpointSchema,
} from "../../schemas/webhook-endpoint";
import { callerBodyLimit } from "../body-limit";
import { errorResponses } from "../error-responses";
import { defineOperation } from "../operation";
import {
  ENDPOINT_CODES,
  ENDPOINT_MIDDLEWARE,
  exampleEndpoint,
  ONE_ENDPOINT,
  WEBHOOK_TAGS,
} from "./webhook-endpoint-answers";

export const updateWebhookEndpointOperation = defineOperation({
  method: "patch",
  ...ONE_ENDPOINT,
  body: {
    schema: updateWebhookEndpointSchema,
    limit: callerBodyLimit,
    examples: {
      everyType: {
        summary: "Every type of event",
        value: { events: ["*"] },
      },
      disable: {
        summary: "Stop its deliveries for now",
        value: { enabled: false },
      },
      enable: {
        summary: "Start again one the service disabled",
        value: { enabled: true },
      },
    },
  },
  middleware: ENDPOINT_MIDDLEWARE,
  handle: async (c, { params, body }) =>
    c.json(
      await updateEndpoint(
        c.var.services,
        c.var.credential,
        params.endpoint_id,
        body,
      ),
    ),
  doc: {
    operationId: "updateWebhookEndpoint",
    summary: "Change a webhook endpoint",
    description:
      "Only the fields sent change (at least one). `enabled: false` stops its deliveries: an event that happens while it is disabled is not sent to it, not even later. `enabled: true` starts them again and, for an endpoint the service disabled, clears `disabled_reason` and `failing_since`. The URL follows the same rules as at creation.",
    tags: WEBHOOK_TAGS,
    security: BEARER,
    responses: {
      200: jsonResponse("The endpoint as it now is.", webhookEndpointSchema, {
        ...exampleEndpoint,
        events: ["*"],
        updated_at: "2026-11-21T09:00:00.000Z",
      }),
      ...errorResponses([400, 401, 403, 404, 413, 415, 422, 429, 500, 503], {
        codes: ENDPOINT_CODES,
      }),
    },
  },
});
