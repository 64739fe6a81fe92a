import {
  createEndpoint,
  MAX_WEBHOOK_ENDPOINTS,
} from "../../domain/webhooks/endpoints";
import { BEARER } from "../../openapi/security";
import { createWebhookEndpointSchema } from "../../schemas/webhook-endpoint";
import { callerBodyLimit } from "../body-limit";
import { errorResponses } from "../error-responses";
import { defineOperation } from "../operation";
import {
  ENDPOINT_CODES,
  ENDPOINT_MIDDLEWARE,
  ENDPOINT_NAMES,
  endpointWithSecretResponse,
  exampleEndpoint,
  WEBHOOK_TAGS,
} from "./webhook-endpoint-answers";

export const createWebhookEndpointOperation = defineOperation({
  method: "post",
  path: "/api/v1/webhook-endpoints",
  body: {
    schema: createWebhookEndpointSchema,
    limit: callerBodyLimit,
    examples: {
      someTypes: {
        summary: "Issues and QR accesses",
        value: {
          url: exampleEndpoint.url,
          events: exampleEndpoint.events,
          description: exampleEndpoint.description,
        },
      },
      everyType: {
        summary: "Every type, those added later included",
        value: { url: exampleEndpoint.url, events: ["*"] },
      },
    },
  },
  middleware: ENDPOINT_MIDDLEWARE,
  handle: async (c, { body }) =>
    c.json(await createEndpoint(c.var.services, c.var.credential, body), 201),
  names: ENDPOINT_NAMES,
  doc: {
    operationId: "createWebhookEndpoint",
    summary: "Register a webhook endpoint",
    description: `From now on each event of the types it lists is POSTed to \`url\` as JSON, signed with the secret of this answer (Standard Webhooks: \`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`). The secret is shown in this answer only and stored encrypted; \`rotate-secret\` gives a new one. A key may have ${MAX_WEBHOOK_ENDPOINTS} endpoints; a demo token has none.`,
    tags: WEBHOOK_TAGS,
    security: BEARER,
    responses: {
      201: endpointWithSecretResponse(
        "The endpoint, enabled, with its signing secret: shown this once.",
      ),
      ...errorResponses([400, 401, 403, 409, 413, 415, 422, 429, 500, 503], {
        codes: [...ENDPOINT_CODES, "WEBHOOK_ENDPOINT_LIMIT"],
      }),
    },
  },
});
