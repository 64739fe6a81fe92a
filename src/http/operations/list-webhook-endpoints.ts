import {
  listEndpoints,
  MAX_WEBHOOK_ENDPOINTS,
} from "../../domain/webhooks/endpoints";
import { jsonResponse } from "../../openapi/responses";
import { BEARER } from "../../openapi/security";
import { webhookEndpointListSchema } from "../../schemas/webhook-endpoint";
import { errorResponses } from "../error-responses";
import { defineOperation } from "../operation";
import {
  ENDPOINT_CODES,
  ENDPOINT_MIDDLEWARE,
  exampleEndpoint,
  WEBHOOK_TAGS,
} from "./webhook-endpoint-answers";

export const listWebhookEndpointsOperation = defineOperation({
  method: "get",
  path: "/api/v1/webhook-endpoints",
  middleware: ENDPOINT_MIDDLEWARE,
  handle: async (c) =>
    c.json(await listEndpoints(c.var.services, c.var.credential)),
  doc: {
    operationId: "listWebhookEndpoints",
    summary: "Your webhook endpoints",
    description: `Every endpoint of this key (at most ${MAX_WEBHOOK_ENDPOINTS}), oldest first, without their secrets.`,
    tags: WEBHOOK_TAGS,
    security: BEARER,
    responses: {
      200: jsonResponse(
        "Your endpoints, oldest first.",
        webhookEndpointListSchema,
        { data: [exampleEndpoint] },
      ),
      ...errorResponses([401, 403, 429, 500, 503], { codes: ENDPOINT_CODES }),
    },
  },
});
