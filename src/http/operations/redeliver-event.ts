import { redeliverEvent } from "../../domain/events/redeliver-event";
import { jsonResponse } from "../../openapi/responses";
import { BEARER } from "../../openapi/security";
import { eventPath } from "../../schemas/event";
import {
  EXAMPLE_ENDPOINT_ID,
  EXAMPLE_REDELIVERY,
} from "../../schemas/event-example";
import { eventDetailSchema } from "../../schemas/event-result";
import { redeliverRequestSchema } from "../../schemas/redeliver-request";
import { callerBodyLimit } from "../body-limit";
import { errorResponses } from "../error-responses";
import { requireCredential } from "../middleware/authenticate";
import { requireApiKey } from "../middleware/require-api-key";
import { defineOperation } from "../operation";
import { EVENT_CODES, EVENT_TAGS } from "./event-answers";

export const redeliverEventOperation = defineOperation({
  method: "post",
  path: "/api/v1/events/{id}/redeliver",
  params: eventPath,
  body: {
    schema: redeliverRequestSchema,
    limit: callerBodyLimit,
    optional: true,
    examples: {
      all: {
        summary: "Every endpoint the event goes to",
        value: {},
      },
      one: {
        summary: "One endpoint only",
        value: { endpoint_id: EXAMPLE_ENDPOINT_ID },
      },
    },
  },
  middleware: [requireCredential, requireApiKey],
  handle: async (c, { params, body }) =>
    c.json(
      await redeliverEvent(c.var.services, c.var.credential, params.id, body),
      202,
    ),
  doc: {
    operationId: "redeliverEvent",
    summary: "Send an event to your webhook endpoints again",
    description:
      "Makes the event's delivery due now, and sends it within seconds, to each enabled endpoint that wants its type now or was sent it before (a ping: to the endpoint it tested), or to `endpoint_id` only; a delivery already made is made again, with the same `webhook-id`. No body, or `{}`, means every such endpoint. An `endpoint_id` that is none of yours, is disabled, or neither wants the type nor was sent the event is 422 `INVALID_VALUE`. The answer is the event with its deliveries, as `GET /api/v1/events/{id}` shows it; another key's event is the same 404 as an unknown one.",
    tags: EVENT_TAGS,
    security: BEARER,
    responses: {
      202: jsonResponse(
        "Accepted: the deliveries are due now.",
        eventDetailSchema,
        EXAMPLE_REDELIVERY,
      ),
      ...errorResponses([400, 401, 403, 404, 413, 415, 422, 429, 500, 503], {
        codes: EVENT_CODES,
      }),
    },
  },
});
