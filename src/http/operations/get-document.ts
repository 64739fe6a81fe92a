import { getDocument } from "../../domain/documents/read-document";
import { READ_WINDOW_HOURS } from "../../domain/windows";
import { BEARER } from "../../openapi/security";
import { errorResponses } from "../error-responses";
import { requireCredential } from "../middleware/authenticate";
import { defineOperation } from "../operation";
import type { Address } from "./document-address";
import {
  DOCUMENT_TAGS,
  documentResultResponse,
  READ_CODES,
  READ_ERRORS,
} from "./document-answers";

export const getDocumentOperation = ({ path, params, operationId }: Address) =>
  defineOperation({
    method: "get",
    path,
    params,
    middleware: [requireCredential],
    handle: async (c, input) =>
      c.json(await getDocument(c.var.services, c.var.credential, input.params)),
    doc: {
      operationId: operationId("getDocument"),
      summary: `Read a document (within ${READ_WINDOW_HOURS} hours of its creation)`,
      description: `The result as create or correct answered it. A rectified version still answers; a deleted one, another key's or one older than ${READ_WINDOW_HOURS} hours is the same 404 as an unknown one.`,
      tags: DOCUMENT_TAGS,
      security: BEARER,
      responses: {
        200: documentResultResponse("The document."),
        ...errorResponses(READ_ERRORS, { codes: READ_CODES }),
      },
    },
  });
