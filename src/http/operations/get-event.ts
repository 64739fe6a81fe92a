import { getEvent } from "../../domain/events/get-event";
import { EVENT_RETENTION_DAYS } from "../../domain/events/retention";
import { jsonResponse } from "../../openapi/responses";
import { BEARER } from "../../openapi/security";
import { eventPath } from "../../schemas/event";
import { EXAMPLE_EVENT_DETAIL } from "../../schemas/event-example";
import { eventDetailSchema } from "../../schemas/event-result";
import { errorResponses } from "../error-responses";
import { requireCredential } from "../middleware/authenticate";
import { requireApiKey } from "../middleware/require-api-key";
import { defineOperation } from "../operation";
import { EVENT_CODES, EVENT_TAGS } from "./event-answers";

export const getEventOperation = defineOperation({
  method: "get",
  path: "/api/v1/events/{id}",
  params: eventPath,
  middleware: [requireCredential, requireApiKey],
  handle: async (c, { params }) =>
    c.json(await getEvent(c.var.services, c.var.credential, params.id)),
  doc: {
    operationId: "getEvent",
    summary: "An event and its deliveries to your webhook endpoints",
    description: `The event as a delivery posts it, and \`deliveries\`: for each endpoint it was sent to, its status, every attempt (when, the endpoint's HTTP status or why none came, how long it took) and when the next one is due. Another key's event, and one older than ${EVENT_RETENTION_DAYS} days, are the same 404 as an unknown one.`,
    tags: EVENT_TAGS,
    security: BEARER,
    responses: {
      200: jsonResponse("The event.", eventDetailSchema, EXAMPLE_EVENT_DETAIL),
      ...errorResponses([401, 403, 404, 429, 500, 503], {
        codes: EVENT_CODES,
      }),
    },
  },
});
