import { deleteDocument } from "../../domain/documents/delete-document";
import { DELETE_WINDOW_HOURS } from "../../domain/windows";
import { BEARER } from "../../openapi/security";
import { deleteRequestSchema } from "../../schemas/delete-request";
import { callerBodyLimit } from "../body-limit";
import { errorResponses } from "../error-responses";
import { requireCredential } from "../middleware/authenticate";
import { defineOperation } from "../operation";
import type { Address } from "./document-address";
import { DOCUMENT_TAGS, WRITE_ERRORS } from "./document-answers";

export const deleteDocumentOperation = ({
  path,
  params,
  operationId,
}: Address) =>
  defineOperation({
    method: "delete",
    path,
    params,
    body: {
      schema: deleteRequestSchema,
      limit: callerBodyLimit,
      examples: {
        deletion: {
          summary: "A transport that never took place",
          value: {
            reason: "El camión no salió: pedido anulado.",
            confirm_not_delivered: true,
            confirm_not_used: true,
          },
        },
      },
    },
    middleware: [requireCredential],
    handle: async (c, input) => {
      await deleteDocument(
        c.var.services,
        c.var.credential,
        input.params,
        input.body,
      );
      return c.body(null, 204);
    },
    doc: {
      operationId: operationId("deleteDocument"),
      summary: `Delete a document within ${DELETE_WINDOW_HOURS} hours of its creation`,
      description:
        "Only the latest version, never handed over nor used, before its QR link was first opened.",
      tags: DOCUMENT_TAGS,
      security: BEARER,
      responses: {
        204: { description: "Deleted." },
        ...errorResponses(WRITE_ERRORS, {
          codes: [
            "RATE_LIMITED",
            "DELETE_WINDOW_EXPIRED",
            "DOCUMENT_ALREADY_DELIVERED",
            "DOCUMENT_ALREADY_USED",
            "DOCUMENT_ALREADY_ACCESSED",
            "DOCUMENT_ALREADY_RECTIFIED",
          ],
        }),
      },
    },
  });
