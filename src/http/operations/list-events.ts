import { listEvents } from "../../domain/events/list-events";
import { EVENT_RETENTION_DAYS } from "../../domain/events/retention";
import { jsonResponse } from "../../openapi/responses";
import { BEARER } from "../../openapi/security";
import { EXAMPLE_EVENT_LIST } from "../../schemas/event-example";
import { eventListQuerySchema } from "../../schemas/event-list-query";
import { eventListSchema } from "../../schemas/event-result";
import { errorResponses } from "../error-responses";
import { requireCredential } from "../middleware/authenticate";
import { requireApiKey } from "../middleware/require-api-key";
import { defineOperation } from "../operation";
import { EVENT_CODES, EVENT_TAGS } from "./event-answers";

export const listEventsOperation = defineOperation({
  method: "get",
  path: "/api/v1/events",
  query: eventListQuerySchema,
  middleware: [requireCredential, requireApiKey],
  handle: async (c, { query }) =>
    c.json(await listEvents(c.var.services, c.var.credential, query)),
  doc: {
    operationId: "listEvents",
    summary: `Your events of the last ${EVENT_RETENTION_DAYS} days, newest first`,
    description: `What happened to the documents issued with this key (issued, rectified, deleted, opened through their QR link), and the pings sent to its webhook endpoints: each event as a webhook delivery posts it, newest first (creation time, then id). \`limit\` events a page; \`has_more\` says whether older ones follow, which \`starting_after\` with the last \`id\` of the page lists. \`type\` and \`document_uuid\` keep only the events of one type or of one document. Events are kept ${EVENT_RETENTION_DAYS} days; an older one is neither listed nor shown. A demo token has no events (403 \`DEMO_NOT_ALLOWED\`).`,
    tags: EVENT_TAGS,
    security: BEARER,
    responses: {
      200: jsonResponse(
        "A page of events.",
        eventListSchema,
        EXAMPLE_EVENT_LIST,
      ),
      ...errorResponses([401, 403, 422, 429, 500, 503], {
        codes: EVENT_CODES,
      }),
    },
  },
});
