import {
  rotateSecret,
  SECRET_OVERLAP_MS,
} from "../../domain/webhooks/rotate-secret";
import { BEARER } from "../../openapi/security";
import { errorResponses } from "../error-responses";
import { defineOperation } from "../operation";
import {
  ENDPOINT_CODES,
  ENDPOINT_MIDDLEWARE,
  endpointWithSecretResponse,
  ONE_ENDPOINT,
  ONE_ENDPOINT_ERRORS,
  WEBHOOK_TAGS,
} from "./webhook-endpoint-answers";

const OVERLAP_HOURS = SECRET_OVERLAP_MS / 3_600_000;

export const rotateWebhookSecretOperation = defineOperation({
  method: "post",
  path: `${ONE_ENDPOINT.path}/rotate-secret`,
  params: ONE_ENDPOINT.params,
  middleware: ENDPOINT_MIDDLEWARE,
  handle: async (c, { params }) =>
    c.json(
      await rotateSecret(c.var.services, c.var.credential, params.endpoint_id),
    ),
  doc: {
    operationId: "rotateWebhookSecret",
    summary: "Give a webhook endpoint a new signing secret",
    description: `The new secret is shown in this answer only. For ${OVERLAP_HOURS} hours the one it replaces keeps signing beside it: each delivery's \`webhook-signature\` then carries both signatures (\`v1,<new> v1,<old>\`), so the receiver can switch at its own pace; \`previous_secret_expires_at\` says until when. A second rotation within those hours makes the secret it replaces the old one, and the older one stops signing at once.`,
    tags: WEBHOOK_TAGS,
    security: BEARER,
    responses: {
      200: endpointWithSecretResponse(
        "The endpoint with its new signing secret: shown this once.",
      ),
      ...errorResponses(ONE_ENDPOINT_ERRORS, { codes: ENDPOINT_CODES }),
    },
  },
});
