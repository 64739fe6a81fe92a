import type { ErrorCode } from "../../errors";
import type { ResponseObject } from "../../openapi/operation-contract";
import { anyDocumentResultSchema } from "../../schemas/document-result";
import {
  exampleDemoDocument,
  exampleDocument,
  exampleGroupedDocument,
} from "../../schemas/document-result-example";
import type { DocumentedErrorStatus } from "../error-responses";

// What the operations on documents have in common (docs/api.md, Errors):
// their error statuses, plus the 503 that any operation answers when a
// dependency is unreachable.

export const DOCUMENT_TAGS = ["documents"];

export const READ_ERRORS: DocumentedErrorStatus[] = [
  401, 403, 404, 429, 500, 503,
];

/** Of the 429s, reads meet only a key's limit: a demo token's are not counted. */
export const READ_CODES: ErrorCode[] = ["RATE_LIMITED"];

export const WRITE_ERRORS: DocumentedErrorStatus[] = [
  400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503,
];

/** A key's limit, and a demo token's (docs/api.md, Demo). */
export const ISSUING_LIMITS: ErrorCode[] = [
  "RATE_LIMITED",
  "DEMO_RATE_LIMITED",
  "DEMO_DOCUMENT_LIMIT",
];

/** Where an issued document's answer names it: the document links it to every operation on it. */
export const DOCUMENT_NAMES = { uuid: "/uuid", reference: "/reference" };

/** A document, real or demo, as create, correct and get answer it. */
export const documentResultResponse = (
  description: string,
): ResponseObject => ({
  description,
  content: {
    "application/json": {
      schema: anyDocumentResultSchema,
      examples: {
        document: { summary: "A real document", value: exampleDocument() },
        grouped: {
          summary: "A grouped document (several shipments)",
          value: exampleGroupedDocument(),
        },
        demo: { summary: "A demo document", value: exampleDemoDocument() },
      },
    },
  },
});
