// The one error model of the API: every failure becomes an ApiError and every
// ApiError becomes the body of spec 2.15, `{errors: [{field, code, message}]}`.

import type { ErrorBody as Body } from "./schemas/error-body";

type BodyItem = Body["errors"][number];

const STATUS_BY_CODE = {
  MALFORMED_JSON: 400,
  UNAUTHENTICATED: 401,
  IP_NOT_ALLOWED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REFERENCE_CONFLICT: 409,
  DOCUMENT_WINDOW_EXPIRED: 409,
  DOCUMENT_ALREADY_RECTIFIED: 409,
  DELETE_WINDOW_EXPIRED: 409,
  DOCUMENT_ALREADY_DELIVERED: 409,
  DOCUMENT_ALREADY_USED: 409,
  DOCUMENT_ALREADY_ACCESSED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  DEMO_RATE_LIMITED: 429,
  DEMO_DOCUMENT_LIMIT: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  DEMO_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof STATUS_BY_CODE;
export type ErrorStatus = (typeof STATUS_BY_CODE)[ErrorCode] | 422;

/** Codes of a 422 answer; each names what is wrong with one field. */
export type ValidationCode =
  | "REQUIRED"
  | "UNKNOWN_FIELD"
  | "INVALID_TYPE"
  | "TOO_SHORT"
  | "TOO_LONG"
  | "INVALID_FORMAT"
  | "INVALID_VALUE"
  | "INVALID_TAX_ID"
  | "INVALID_REGISTRATION"
  | "INVALID_DECIMAL"
  | "EXACTLY_ONE_REQUIRED"
  | "BOTH_OR_NEITHER"
  | "METADATA_TOO_LARGE"
  | "METADATA_TOO_DEEP"
  | "INVALID_DATE"
  | "INVALID_RANGE"
  | "DOCUMENT_TOO_LARGE";

/** An item of the error body, whose code is one of the contract's. */
export type ErrorItem = BodyItem & { code: ErrorCode | ValidationCode };

export type ErrorBody = { errors: ErrorItem[] };

export class ApiError extends Error {
  readonly status: ErrorStatus;
  readonly items: ErrorItem[];
  readonly headers: Record<string, string>;

  constructor(
    status: ErrorStatus,
    items: ErrorItem[],
    headers: Record<string, string> = {},
    cause?: unknown,
  ) {
    super(items.map((item) => `${item.code}: ${item.message}`).join("; "), {
      cause,
    });
    this.name = "ApiError";
    this.status = status;
    this.items = items;
    this.headers = headers;
  }

  /** An error with one code, whose status follows from the code. */
  static of(
    code: ErrorCode,
    message: string,
    options: {
      field?: string | null;
      headers?: Record<string, string>;
      /** The failure behind a 5xx, logged with the request id. */
      cause?: unknown;
    } = {},
  ): ApiError {
    return new ApiError(
      STATUS_BY_CODE[code],
      [{ field: options.field ?? null, code, message }],
      options.headers,
      options.cause,
    );
  }

  /** A 422 listing every validation error at once. */
  static validation(items: ErrorItem[]): ApiError {
    return new ApiError(422, items);
  }

  get body(): ErrorBody {
    return { errors: this.items };
  }
}

export const notFound = (): ApiError =>
  ApiError.of("NOT_FOUND", "The requested resource does not exist.");

export const unauthenticated = (): ApiError =>
  ApiError.of(
    "UNAUTHENTICATED",
    "A valid API key is required: send it as `Authorization: Bearer <key>`.",
    { headers: { "WWW-Authenticate": "Bearer" } },
  );

export const internalError = (requestId: string): ApiError =>
  ApiError.of(
    "INTERNAL_ERROR",
    `An unexpected error occurred. Quote request id ${requestId} when contacting support.`,
  );

// Seconds a client waits before retrying after an outage: long enough for a
// Durable Object or R2 to come back, short enough for a haulier waiting on
// a document.
const OUTAGE_RETRY_AFTER_SECONDS = 5;

/** A dependency the request needs could not be reached; a retry may succeed. */
export const serviceUnavailable = (
  message: string,
  cause?: unknown,
): ApiError =>
  ApiError.of(
    "SERVICE_UNAVAILABLE",
    `${message} Retry in ${OUTAGE_RETRY_AFTER_SECONDS} seconds.`,
    {
      cause,
      headers: { "Retry-After": String(OUTAGE_RETRY_AFTER_SECONDS) },
    },
  );
