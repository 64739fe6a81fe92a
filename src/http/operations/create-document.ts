import { createDocument } from "../../domain/documents/create-document";
import { READ_WINDOW_HOURS } from "../../domain/windows";
import { BEARER } from "../../openapi/security";
import { documentRequestSchema } from "../../schemas/document-request";
import {
  exampleGroupedRequest,
  exampleRequest,
} from "../../schemas/document-request-example";
import { callerBodyLimit } from "../body-limit";
import { errorResponses } from "../error-responses";
import { requireIssuingCredential } from "../middleware/authenticate";
import { defineOperation } from "../operation";
import {
  DOCUMENT_NAMES,
  DOCUMENT_TAGS,
  documentResultResponse,
  ISSUING_LIMITS,
  WRITE_ERRORS,
} from "./document-answers";

const { reference, ...withoutReference } = exampleRequest;

export const createDocumentOperation = defineOperation({
  method: "post",
  path: "/api/v1/documents",
  body: {
    schema: documentRequestSchema,
    limit: callerBodyLimit,
    examples: {
      // What /docs sends: without a reference, each try issues a new document.
      withoutReference: {
        summary: "A new document each time",
        value: withoutReference,
      },
      withReference: {
        summary: `With a reference: sent again, the original answers (200)`,
        value: { ...withoutReference, reference },
      },
      grouped: {
        summary: "A grouped document: one route, several shipments",
        value: exampleGroupedRequest,
      },
    },
  },
  middleware: [requireIssuingCredential],
  handle: async (c, { body }) => {
    const { created, result } = await createDocument(
      c.var.services,
      c.var.credential,
      body,
    );
    return c.json(result, created ? 201 : 200);
  },
  names: DOCUMENT_NAMES,
  doc: {
    operationId: "createDocument",
    summary: "Issue a document",
    description: `Sending the same body again with the same \`reference\` within ${READ_WINDOW_HOURS} hours answers the original with 200 and issues nothing. The PDF prints the labels in the organization's \`document_locale\` with the Spanish beside them (Spanish only for \`es\`), every character of the data with a real glyph, and the time of issue in the local time of the origin (the first shipment's, for a grouped document) with its UTC offset (\`Atlantic/Canary\` when its \`postal_code\` starts with 35 or 38, otherwise \`Europe/Madrid\`), for example \`23/11/2026 14:16 (UTC+01:00, hora peninsular)\`; the JSON times stay in UTC.`,
    tags: DOCUMENT_TAGS,
    security: BEARER,
    responses: {
      201: documentResultResponse("Issued."),
      200: documentResultResponse(
        "A retry: the original result, nothing new issued.",
      ),
      ...errorResponses(WRITE_ERRORS, {
        issuing: true,
        codes: [
          ...ISSUING_LIMITS,
          "REFERENCE_CONFLICT",
          "DOCUMENT_WINDOW_EXPIRED",
        ],
      }),
    },
  },
});
