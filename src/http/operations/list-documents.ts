import { listDocuments } from "../../domain/documents/list";
import { READ_WINDOW_HOURS } from "../../domain/windows";
import { jsonResponse } from "../../openapi/responses";
import { BEARER } from "../../openapi/security";
import { documentListSchema } from "../../schemas/document-result";
import { EXAMPLE_UUID } from "../../schemas/document-result-example";
import { listQuerySchema } from "../../schemas/list-query";
import { errorResponses } from "../error-responses";
import { requireCredential } from "../middleware/authenticate";
import { defineOperation } from "../operation";
import { DOCUMENT_TAGS, READ_CODES } from "./document-answers";

export const listDocumentsOperation = defineOperation({
  method: "get",
  path: "/api/v1/documents",
  query: listQuerySchema,
  middleware: [requireCredential],
  handle: async (c, { query }) =>
    c.json(await listDocuments(c.var.services, c.var.credential, query)),
  doc: {
    operationId: "listDocuments",
    summary: `Your non-deleted documents of the last ${READ_WINDOW_HOURS} hours, newest first`,
    description:
      "The documents issued with this key, corrections included (each names the version it rectifies). `from` and `to` keep those whose transport date lies between them, both included; `page` and `limit` page through the rest. Other query parameters are ignored.",
    tags: DOCUMENT_TAGS,
    security: BEARER,
    responses: {
      200: jsonResponse("A page of documents.", documentListSchema, {
        data: [
          {
            uuid: EXAMPLE_UUID,
            reference: "PED-2026-0001",
            created_at: "2026-11-21T08:30:00.000Z",
            transport_date: "2026-11-21",
            rectifies_uuid: null,
          },
        ],
        meta: { current_page: 1, limit: 25, total: 1, last_page: 1 },
      }),
      ...errorResponses([401, 403, 422, 429, 500, 503], {
        codes: READ_CODES,
      }),
    },
  },
});
