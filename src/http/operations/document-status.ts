import { getDocumentStatus } from "../../domain/documents/read-document";
import { READ_WINDOW_HOURS } from "../../domain/windows";
import { jsonResponse } from "../../openapi/responses";
import { BEARER } from "../../openapi/security";
import { documentStatusSchema } from "../../schemas/document-result";
import { errorResponses } from "../error-responses";
import { requireCredential } from "../middleware/authenticate";
import { defineOperation } from "../operation";
import type { Address } from "./document-address";
import { DOCUMENT_TAGS, READ_CODES, READ_ERRORS } from "./document-answers";

export const documentStatusOperation = ({
  path,
  params,
  operationId,
}: Address) =>
  defineOperation({
    method: "get",
    path: `${path}/status`,
    params,
    middleware: [requireCredential],
    handle: async (c, input) =>
      c.json(
        await getDocumentStatus(c.var.services, c.var.credential, input.params),
      ),
    doc: {
      operationId: operationId("getDocumentStatus"),
      summary: "Whether a document is active or deleted",
      description: `Within ${READ_WINDOW_HOURS} hours of its creation, a deleted document answers \`deleted\` here while every other read of it is a 404.`,
      tags: DOCUMENT_TAGS,
      security: BEARER,
      responses: {
        200: jsonResponse("The status.", documentStatusSchema, {
          status: "active",
        }),
        ...errorResponses(READ_ERRORS, { codes: READ_CODES }),
      },
    },
  });
