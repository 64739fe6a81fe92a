import { sendTestEvent } from "../../domain/webhooks/send-test-event";
import { jsonResponse } from "../../openapi/responses";
import { BEARER } from "../../openapi/security";
import { eventSchema } from "../../schemas/event";
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

export const testWebhookEndpointOperation = defineOperation({
  method: "post",
  path: `${ONE_ENDPOINT.path}/test`,
  params: ONE_ENDPOINT.params,
  middleware: ENDPOINT_MIDDLEWARE,
  handle: async (c, { params }) =>
    c.json(
      await sendTestEvent(c.var.services, c.var.credential, params.endpoint_id),
      202,
    ),
  doc: {
    operationId: "testWebhookEndpoint",
    summary: "Send a ping event to a webhook endpoint",
    description:
      "A `ping` event, delivered to this endpoint only, within seconds, signed like any event but tried once: a ping that fails is not retried (redeliver it, or test again). It is listed by the events API with its attempt. Answered at once, before the delivery.",
    tags: WEBHOOK_TAGS,
    security: BEARER,
    responses: {
      202: jsonResponse(
        "The ping event (an `Event` of type `ping`), to be delivered.",
        eventSchema,
        {
          id: "evt_5f0c2a9e41d37b68a0c4e1f2",
          type: "ping",
          created_at: "2026-11-21T08:31:00.000Z",
          environment: "live",
          data: { webhook_endpoint_id: exampleEndpoint.id },
        },
      ),
      ...errorResponses(ONE_ENDPOINT_ERRORS, { codes: ENDPOINT_CODES }),
    },
  },
});
