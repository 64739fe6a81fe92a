import { rectifyDocument } from "../../domain/documents/rectify-document";
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
import type { Address } from "./document-address";
import {
  DOCUMENT_NAMES,
  DOCUMENT_TAGS,
  documentResultResponse,
  ISSUING_LIMITS,
  WRITE_ERRORS,
} from "./document-answers";

export const correctDocumentOperation = ({
  path,
  params,
  operationId,
}: Address) =>
  defineOperation({
    method: "put",
    path,
    params,
    body: {
      schema: documentRequestSchema,
      limit: callerBodyLimit,
      examples: {
        correction: {
          summary: "The whole corrected data, with its own reference",
          value: { ...exampleRequest, reference: "PED-2026-0001-R1" },
        },
        grouped: {
          summary:
            "A grouped document, corrected (or a single one made grouped)",
          value: {
            ...exampleGroupedRequest,
            reference: `${exampleGroupedRequest.reference}-R1`,
          },
        },
      },
    },
    middleware: [requireIssuingCredential],
    handle: async (c, input) =>
      c.json(
        await rectifyDocument(
          c.var.services,
          c.var.credential,
          input.params,
          input.body,
        ),
      ),
    names: DOCUMENT_NAMES,
    doc: {
      operationId: operationId("rectifyDocument"),
      summary: "Correct a document by issuing a new version",
      description: `The whole corrected data, no partial updates. The corrected version and its QR link stay valid. The same correction sent again within ${READ_WINDOW_HOURS} hours answers the existing one. Its PDF names the version it rectifies by its reference and uuid and lists each printed field whose normalized value changed as \`label: old → new\` (a long text by its label alone), a change of vehicle first (Orden FOM/2861/2012, art. 6 g).`,
      tags: DOCUMENT_TAGS,
      security: BEARER,
      responses: {
        200: documentResultResponse(
          "The new version (or the existing one, for a retry).",
        ),
        ...errorResponses(WRITE_ERRORS, {
          issuing: true,
          codes: [
            ...ISSUING_LIMITS,
            "REFERENCE_CONFLICT",
            "DOCUMENT_WINDOW_EXPIRED",
            "DOCUMENT_ALREADY_RECTIFIED",
          ],
        }),
      },
    },
  });
