import { documentTooLarge } from "../domain/documents/pdf-size";
import { type SchemaName, schemaRef } from "./components";
import { exampleError } from "./examples";

/** What each error status means here (docs/api.md, Errors). */
const ERRORS = {
  400: ["Body is not valid JSON or not a JSON object.", "MALFORMED_JSON"],
  401: [
    "Missing, unknown, revoked or expired key (with `WWW-Authenticate: Bearer`).",
    "UNAUTHENTICATED",
  ],
  403: [
    "The caller's IP is not allowed for this key (demo tokens: only the IP that requested them).",
    "IP_NOT_ALLOWED",
  ],
  404: [
    "No such document for this key: nonexistent, foreign, out of its window or deleted, all alike.",
    "NOT_FOUND",
  ],
  409: [
    "The document rules refuse the request; `code` says which.",
    "REFERENCE_CONFLICT",
  ],
  413: ["Body over 128 KiB (32 KiB for demo requests).", "PAYLOAD_TOO_LARGE"],
  415: [
    "A body whose Content-Type is not application/json.",
    "UNSUPPORTED_MEDIA_TYPE",
  ],
  422: [
    "Validation failed: every error at once, each with its field's dotted path.",
    "TOO_LONG",
  ],
  429: [
    "Too many requests (with `Retry-After` in seconds, except for the ten-documents demo limit).",
    "RATE_LIMITED",
  ],
  500: [
    "Unexpected error; the message carries the request id.",
    "INTERNAL_ERROR",
  ],
  503: [
    "A dependency unreachable (database, document store, lock or rate limiter; with `Retry-After`), or the demo switched off (`DEMO_UNAVAILABLE`, for demo tokens and links). Any operation may answer it.",
    "SERVICE_UNAVAILABLE",
  ],
} as const;

/** A status whose error response the OpenAPI description documents. */
export type DocumentedErrorStatus = keyof typeof ERRORS;

const FIELD_OF_EXAMPLE: Partial<Record<DocumentedErrorStatus, string>> = {
  409: "reference",
  422: "shipper.tax_id",
};

const header = (description: string, type: "string" | "integer") => ({
  description,
  schema: { type },
});

// Headers a client acts on (docs/api.md, Errors).
const ERROR_HEADERS: Partial<Record<DocumentedErrorStatus, object>> = {
  401: { "WWW-Authenticate": header("`Bearer`.", "string") },
  429: {
    "Retry-After": header(
      "Seconds to wait; absent for the ten-documents demo limit, which never resets.",
      "integer",
    ),
  },
  503: {
    "Retry-After": header(
      "Seconds to wait when a dependency is unreachable; absent when the demo is switched off.",
      "integer",
    ),
  },
};

/** The 422 of issuing (create, correct), which may also refuse the PDF's size. */
const ISSUING_422 = {
  description:
    "Validation failed: every error at once, each with its field's dotted path; or `DOCUMENT_TOO_LARGE` (field null) when the rendered PDF would exceed 5,000,000 bytes.",
  examples: {
    validation: {
      summary: "A field breaks a rule",
      value: exampleError(
        "shipper.tax_id",
        "INVALID_TAX_ID",
        "Not a valid tax id for tax_country (for ES: a DNI, NIE or NIF with its control character).",
      ),
    },
    documentTooLarge: {
      summary: "The PDF would be too large",
      value: { errors: documentTooLarge().items },
    },
  },
};

/** An OpenAPI response object, as far as this document uses it. */
export interface ResponseObject {
  description: string;
  headers?: object;
  content?: object;
}

function errorResponse(
  status: DocumentedErrorStatus,
  issuing: boolean,
): ResponseObject {
  const [description, code] = ERRORS[status];
  const issuingValidation = status === 422 && issuing;
  return {
    description: issuingValidation ? ISSUING_422.description : description,
    ...(ERROR_HEADERS[status] ? { headers: ERROR_HEADERS[status] } : {}),
    content: {
      "application/json": {
        schema: schemaRef("ErrorBody"),
        ...(issuingValidation
          ? { examples: ISSUING_422.examples }
          : {
              example: exampleError(
                FIELD_OF_EXAMPLE[status] ?? null,
                code,
                description,
              ),
            }),
      },
    },
  };
}

export const jsonResponse = (
  description: string,
  schema: SchemaName,
  example: unknown,
) => ({
  description,
  content: { "application/json": { schema: schemaRef(schema), example } },
});

/** A PDF answer, as the document describes it. */
export const documentedPdf = (
  description: string,
  disposition: "inline" | "attachment",
) => ({
  description,
  headers: {
    "Content-Disposition": header(
      `\`${disposition}; filename="documento-control-{uuid}.pdf"\``,
      "string",
    ),
  },
  content: {
    "application/pdf": {
      schema: { type: "string", contentMediaType: "application/pdf" },
    },
  },
});

export const qrImageResponse = (description: string) => ({
  description,
  headers: {
    "Content-Disposition": header(
      '`inline; filename="documento-control-{uuid}-qr.svg"` (or `.png`)',
      "string",
    ),
  },
  content: {
    "image/svg+xml": {
      schema: { type: "string", contentMediaType: "image/svg+xml" },
    },
    "image/png": {
      schema: { type: "string", contentMediaType: "image/png" },
    },
  },
});

/**
 * The success answers of an operation plus its error statuses; `issuing`
 * operations (create, correct) also describe DOCUMENT_TOO_LARGE.
 */
export const responses = (
  success: Record<string, ResponseObject>,
  errors: DocumentedErrorStatus[],
  { issuing = false } = {},
) => ({
  ...success,
  ...Object.fromEntries(
    errors.map((status) => [String(status), errorResponse(status, issuing)]),
  ),
});

/**
 * The HEAD of a GET operation: the same statuses and headers, never a body,
 * and nothing recorded (docs/api.md, Reading and status).
 */
export function headOf<
  Operation extends {
    operationId: string;
    summary: string;
    responses: Record<string, ResponseObject>;
  },
>(get: Operation) {
  return {
    ...get,
    operationId: `${get.operationId}Head`,
    summary: `${get.summary}: its headers only`,
    description:
      "The headers that a GET would answer, without the body. Records nothing: not a download, not a QR access.",
    responses: Object.fromEntries(
      Object.entries(get.responses).map(
        ([status, { description, headers }]) => [
          status,
          { description, ...(headers ? { headers } : {}) },
        ],
      ),
    ),
  };
}
