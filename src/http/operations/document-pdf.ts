import { downloadDocumentPdf } from "../../domain/documents/read-document";
import { READ_WINDOW_HOURS } from "../../domain/windows";
import { documentedPdf } from "../../openapi/responses";
import { BEARER } from "../../openapi/security";
import { errorResponses } from "../error-responses";
import { requireCredential } from "../middleware/authenticate";
import { defineOperation } from "../operation";
import { isHead, storedPdfResponse } from "../stored-pdf-response";
import type { Address } from "./document-address";
import { DOCUMENT_TAGS, READ_CODES, READ_ERRORS } from "./document-answers";

export const documentPdfOperation = ({ path, params, operationId }: Address) =>
  defineOperation({
    method: "get",
    path: `${path}/pdf`,
    params,
    head: true,
    middleware: [requireCredential],
    handle: async (c, input) =>
      storedPdfResponse(
        await downloadDocumentPdf(
          c.var.services,
          c.var.credential,
          input.params,
          { recordDownload: !isHead(c.req.raw) },
        ),
        "attachment",
      ),
    doc: {
      operationId: operationId("downloadDocumentPdf"),
      summary: "Download the exact stored PDF",
      description: `The bytes stored at issue, whose SHA-256 is the result's \`pdf.sha256\`, within ${READ_WINDOW_HOURS} hours of the document's creation. Each download is recorded in the document's audit trail.`,
      tags: DOCUMENT_TAGS,
      security: BEARER,
      responses: {
        200: documentedPdf("The PDF, as an attachment.", "attachment"),
        ...errorResponses(READ_ERRORS, { codes: READ_CODES }),
      },
    },
  });
