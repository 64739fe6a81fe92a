import { dryRunDocument } from "../../domain/documents/dry-run";
import { BEARER } from "../../openapi/security";
import { documentRequestSchema } from "../../schemas/document-request";
import {
  exampleGroupedRequest,
  exampleRequest,
} from "../../schemas/document-request-example";
import { dryRunResultSchema } from "../../schemas/document-result";
import { exampleDryRuns } from "../../schemas/document-result-example";
import { callerBodyLimit } from "../body-limit";
import { errorResponses } from "../error-responses";
import { requireIssuingCredential } from "../middleware/authenticate";
import { defineOperation } from "../operation";
import { DOCUMENT_TAGS } from "./document-answers";

const [single, grouped] = exampleDryRuns();

/** The dry run (docs/api.md, Dry run): a create's checks and rendering, nothing issued. */
export const validateDocumentOperation = defineOperation({
  method: "post",
  path: "/api/v1/documents/validate",
  body: {
    schema: documentRequestSchema,
    limit: callerBodyLimit,
    examples: {
      single: { summary: "One shipment", value: exampleRequest },
      grouped: { summary: "Grouped shipments", value: exampleGroupedRequest },
    },
  },
  // A create's limits: a demo token's IP counts it as a document.
  middleware: [requireIssuingCredential],
  handle: async (c, { body }) =>
    c.json(await dryRunDocument(c.var.services, c.var.credential, body)),
  doc: {
    operationId: "validateDocument",
    summary: "Check a document without issuing it (dry run)",
    description:
      "The body of a create, with a create's authentication, rate limits (a demo token's IP counts it as a document), media type, size, JSON and validation, `DOCUMENT_TOO_LARGE` included: answers what a create would hold as `data` and the PDF it would render (a demo token's with its demo marks), or the error a create would answer. It issues and stores nothing (no document, reference, PDF, audit event, nor one of a demo token's ten documents), and checks neither the reference against existing documents nor a demo token's document count.",
    tags: DOCUMENT_TAGS,
    security: BEARER,
    responses: {
      200: {
        description: "The body would be accepted: its data and its PDF.",
        content: {
          "application/json": {
            schema: dryRunResultSchema,
            examples: {
              single: { summary: "One shipment", value: single },
              grouped: { summary: "Grouped shipments", value: grouped },
            },
          },
        },
      },
      ...errorResponses([400, 401, 403, 413, 415, 422, 429, 500, 503], {
        issuing: true,
        codes: ["RATE_LIMITED", "DEMO_RATE_LIMITED"],
      }),
    },
  },
});
