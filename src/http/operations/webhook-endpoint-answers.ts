import type { ErrorCode } from "../../errors";
import { jsonResponse } from "../../openapi/responses";
import {
  type WebhookEndpoint,
  webhookEndpointPath,
  webhookEndpointWithSecretSchema,
} from "../../schemas/webhook-endpoint";
import type { DocumentedErrorStatus } from "../error-responses";
import { requireCredential } from "../middleware/authenticate";
import { requireApiKey } from "../middleware/require-api-key";

// What the operations on webhook endpoints have in common (docs/api.md,
// Webhook endpoints).

export const WEBHOOK_TAGS = ["webhooks"];

/** A key's, never a demo token's (403 DEMO_NOT_ALLOWED). */
export const ENDPOINT_MIDDLEWARE = [requireCredential, requireApiKey];

/** The refusals of every operation on endpoints: the caller's IP, a demo token, a key's rate. */
export const ENDPOINT_CODES: ErrorCode[] = [
  "IP_NOT_ALLOWED",
  "DEMO_NOT_ALLOWED",
  "RATE_LIMITED",
];

/** The statuses of an operation on one endpoint without a body. */
export const ONE_ENDPOINT_ERRORS: DocumentedErrorStatus[] = [
  401, 403, 404, 429, 500, 503,
];

/** The path of one endpoint; an id that cannot be an endpoint's is a 404, as another key's is. */
export const ONE_ENDPOINT = {
  path: "/api/v1/webhook-endpoints/{endpoint_id}",
  params: webhookEndpointPath,
};

/** Where an answer names an endpoint: the document links it to every operation on it. */
export const ENDPOINT_NAMES = { endpoint_id: "/id" };

export const exampleEndpoint: WebhookEndpoint = {
  id: "we_4kQ9xT2mB7rLw0ZcN5vH8pJd",
  url: "https://tms.example.com/webhooks/deca",
  events: ["document.issued", "document.accessed"],
  description: "TMS, production",
  enabled: true,
  disabled_reason: null,
  failing_since: null,
  previous_secret_expires_at: null,
  created_at: "2026-11-21T08:30:00.000Z",
  updated_at: "2026-11-21T08:30:00.000Z",
};

/** An endpoint with the secret that create and rotate-secret show once. */
export const endpointWithSecretResponse = (description: string) =>
  jsonResponse(description, webhookEndpointWithSecretSchema, {
    ...exampleEndpoint,
    secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw2ZEXwBmoPIU=",
  });
