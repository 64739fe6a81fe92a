import { issueKey } from "../../../domain/operations/keys";
import { SUPPORT_SECRET } from "../../../openapi/security";
import { issuedKeySchema, issueKeyRequestSchema } from "../../../schemas/ops";
import { opsBodyLimit } from "../../body-limit";
import { requireSupport } from "../../middleware/require-support";
import { defineOperation } from "../../operation";
import { OPS_WITH_BODY, opsResponses } from "./ops-answers";

export const issueKeyOperation = defineOperation({
  method: "post",
  path: "/ops/v1/keys",
  body: {
    schema: issueKeyRequestSchema,
    limit: opsBodyLimit,
    examples: {
      live: {
        summary: "A live key",
        value: { organization: "Transportes Ejemplo SL", environment: "live" },
      },
    },
  },
  middleware: [requireSupport],
  handle: async (c, { body }) =>
    c.json(await issueKey(c.var.services, body), 201),
  doc: {
    operationId: "issueKey",
    summary: "Issue an API key (the organization is created unless it exists)",
    description:
      "The plain key is in this answer only; the service keeps its SHA-256, prefix and last four characters. `document_locale` sets the organization's PDF language, also for an existing one.",
    tags: ["keys"],
    security: SUPPORT_SECRET,
    responses: opsResponses(
      201,
      "The key, once.",
      issuedKeySchema,
      OPS_WITH_BODY,
    ),
  },
});
