// The one error model of the API: every failure is a DomainError (one code
// and the facts behind it) or a ValidationError (the 422 list), and the HTTP
// layer's catalog (src/http/error-catalog.ts) turns it into the error body of
// docs/api.md, Errors, `{errors: [{field, code, message}]}`, with its status and headers.

/**
 * The facts each code's message and headers are made of; the catalog words
 * them. A code with nothing to add has none.
 */
export interface ErrorFacts {
  MALFORMED_JSON: NoFacts;
  UNAUTHENTICATED: NoFacts;
  IP_NOT_ALLOWED: NoFacts;
  NOT_FOUND: NoFacts;
  METHOD_NOT_ALLOWED: { method: string; allowed: string[] };
  REFERENCE_CONFLICT: NoFacts;
  DOCUMENT_WINDOW_EXPIRED: NoFacts;
  DOCUMENT_ALREADY_RECTIFIED: NoFacts;
  DELETE_WINDOW_EXPIRED: NoFacts;
  DOCUMENT_ALREADY_DELIVERED: NoFacts;
  DOCUMENT_ALREADY_USED: NoFacts;
  DOCUMENT_ALREADY_ACCESSED: NoFacts;
  PAYLOAD_TOO_LARGE: { maxBytes: number };
  UNSUPPORTED_MEDIA_TYPE: NoFacts;
  /** `retryAfterMs`: how long until the request would be allowed. */
  RATE_LIMITED: { retryAfterMs: number };
  DEMO_RATE_LIMITED: { retryAfterMs: number };
  /** `limit`: the documents a demo session may issue in all. */
  DEMO_DOCUMENT_LIMIT: { limit: number };
  INTERNAL_ERROR: { requestId: string };
  /** `dependency`: what could not be reached, or was busy; `retryAfterMs`: when to try again. */
  SERVICE_UNAVAILABLE: {
    dependency: UnavailableDependency;
    retryAfterMs: number;
  };
  DEMO_UNAVAILABLE: NoFacts;
  /** What only an API key has (events, webhook endpoints), asked with a demo token. */
  DEMO_NOT_ALLOWED: NoFacts;
  /** `limit`: the webhook endpoints a credential may have. */
  WEBHOOK_ENDPOINT_LIMIT: { limit: number };
  /** The operations API (/ops/v1): a missing or wrong support secret, or an IP off its allow-list. */
  OPS_UNAUTHENTICATED: NoFacts;
  OPS_IP_NOT_ALLOWED: NoFacts;
  /** The eFTI gates' interface (/efti/v0): a missing or wrong gate key, an IP off its allow-list, too many refusals. */
  GATE_UNAUTHENTICATED: NoFacts;
  GATE_IP_NOT_ALLOWED: NoFacts;
  GATE_RATE_LIMITED: { retryAfterMs: number };
  /**
   * `subsetId` missing, or naming a subset not served; `served`: the subsets
   * this deployment serves, which `full` names together.
   */
  INVALID_SUBSET_ID: { served: readonly string[] };
  /** A follow-up that is not `text/plain`. */
  FOLLOW_UP_NOT_TEXT: NoFacts;
  /** A follow-up that is empty or not UTF-8. */
  INVALID_FOLLOW_UP: NoFacts;
}

type NoFacts = Record<never, never>;

export type ErrorCode = keyof ErrorFacts;

/** The storage a request may find unreachable or busy (503). */
export type UnavailableDependency =
  | "database"
  | "pdf_store"
  | "font_store"
  | "rate_limiter";

/** Codes of a 422 answer; each names what is wrong with one field. */
export const VALIDATION_CODES = [
  "REQUIRED",
  "UNKNOWN_FIELD",
  "INVALID_TYPE",
  "TOO_SHORT",
  "TOO_LONG",
  "INVALID_FORMAT",
  "INVALID_VALUE",
  "INVALID_TAX_ID",
  "INVALID_REGISTRATION",
  "INVALID_DECIMAL",
  "EXACTLY_ONE_REQUIRED",
  "BOTH_OR_NEITHER",
  "METADATA_TOO_LARGE",
  "METADATA_TOO_DEEP",
  "INVALID_DATE",
  "INVALID_RANGE",
  "DOCUMENT_TOO_LARGE",
] as const;

export type ValidationCode = (typeof VALIDATION_CODES)[number];

/** An item of the error body (its schema: src/schemas/error-body.ts), whose code is one of the contract's. */
export interface ErrorItem {
  field: string | null;
  code: ErrorCode | ValidationCode;
  message: string;
}

export type ErrorBody = { errors: ErrorItem[] };

interface ErrorOptions {
  /** The field the error is about, when one is. */
  field?: string | null;
  /** The failure behind it, logged with the request id. */
  cause?: unknown;
}

type DetailsOf<Code extends ErrorCode> = ErrorFacts[Code] & ErrorOptions;

/** A refusal or failure with one code; what the caller reads comes from the catalog. */
export class DomainError<Code extends ErrorCode = ErrorCode> extends Error {
  readonly code: Code;
  readonly field: string | null;
  readonly facts: ErrorFacts[Code];

  constructor(
    code: Code,
    ...[details]: NoFacts extends ErrorFacts[Code]
      ? [details?: DetailsOf<Code>]
      : [details: DetailsOf<Code>]
  ) {
    const { field = null, cause, ...facts } = details ?? {};
    super(code, { cause });
    this.name = "DomainError";
    this.code = code;
    this.field = field;
    this.facts = facts as ErrorFacts[Code];
  }
}

/** A 422 listing every validation error at once. */
export class ValidationError extends Error {
  readonly items: ErrorItem[];

  constructor(items: ErrorItem[]) {
    super(items.map((item) => `${item.code}: ${item.message}`).join("; "));
    this.name = "ValidationError";
    this.items = items;
  }
}

/**
 * The DomainError a failure is or was caused by: a library may wrap ours
 * (drizzle wraps every failed query, a D1 outage included).
 */
export function domainErrorBehind(error: unknown): DomainError | undefined {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof DomainError) return cause;
  }
  return undefined;
}

export const notFound = (): DomainError => new DomainError("NOT_FOUND");

// How long a client waits before retrying after an outage: long enough for a
// Durable Object, D1 or R2 to come back, short enough for a haulier waiting on
// a document.
export const OUTAGE_RETRY_AFTER_MS = 5_000;

/** A dependency the request needs could not be reached; a retry may succeed. */
export const serviceUnavailable = (
  dependency: UnavailableDependency,
  cause?: unknown,
): DomainError =>
  new DomainError("SERVICE_UNAVAILABLE", {
    dependency,
    retryAfterMs: OUTAGE_RETRY_AFTER_MS,
    cause,
  });
