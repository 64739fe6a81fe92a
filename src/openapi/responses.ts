import { type SchemaName, schemaRef } from "./components";
import { exampleError } from "./examples";

/** What each error status means here (spec 7 and decisions.md). */
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
    "Storage unreachable, or the demo switched off (demo tokens and links).",
    "SERVICE_UNAVAILABLE",
  ],
} as const;

export type ErrorStatus = keyof typeof ERRORS;

const FIELD_OF_EXAMPLE: Partial<Record<ErrorStatus, string>> = {
  409: "reference",
  422: "shipper.tax_id",
};

const header = (description: string, type: "string" | "integer") => ({
  description,
  schema: { type },
});

// Headers a client acts on (decisions.md).
const ERROR_HEADERS: Partial<Record<ErrorStatus, object>> = {
  401: { "WWW-Authenticate": header("`Bearer`.", "string") },
  429: {
    "Retry-After": header(
      "Seconds to wait; absent for the ten-documents demo limit, which never resets.",
      "integer",
    ),
  },
};

function errorResponse(status: ErrorStatus) {
  const [description, code] = ERRORS[status];
  return {
    description,
    ...(ERROR_HEADERS[status] ? { headers: ERROR_HEADERS[status] } : {}),
    content: {
      "application/json": {
        schema: schemaRef("ErrorBody"),
        example: exampleError(
          FIELD_OF_EXAMPLE[status] ?? null,
          code,
          description,
        ),
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

/** The success answers of an operation plus its error statuses. */
export const responses = (
  success: Record<string, object>,
  errors: ErrorStatus[],
) => ({
  ...success,
  ...Object.fromEntries(
    errors.map((status) => [String(status), errorResponse(status)]),
  ),
});
