import type { ContentfulStatusCode } from "hono/utils/http-status";
import {
  DEFAULT_DEMO_DOCUMENTS_PER_TOKEN,
  DEFAULT_MAX_BODY_BYTES,
} from "../config";
import { FULL_SUBSETS } from "../domain/documents/efti-gate";
import { SUBSETS_SERVED_ALWAYS } from "../domain/efti/subsets";
import { GATE_REFUSALS_KEPT } from "../domain/operations/gate-calls";
import { MAX_WEBHOOK_ENDPOINTS } from "../domain/webhooks/endpoints";
import { DELETE_WINDOW_HOURS, READ_WINDOW_HOURS } from "../domain/windows";
import {
  type DomainError,
  type ErrorCode,
  type ErrorFacts,
  type ErrorItem,
  OUTAGE_RETRY_AFTER_MS,
  type UnavailableDependency,
} from "../errors";

// Like unkey's codeToStatus: each code's status, its one message (a template
// over the facts the code carries) and the headers a client acts on.

/** Which API answers a code: the customers', the operations API, the eFTI gates' interface, or all. */
type Api = "customers" | "ops" | "gate";

type CatalogEntry<Code extends ErrorCode> = {
  status: ContentfulStatusCode;
  message: (facts: ErrorFacts[Code]) => string;
  headers?: (facts: ErrorFacts[Code]) => Record<string, string>;
  /** Absent: both. */
  api?: Api;
  /**
   * Answered only by the operations whose descriptions name it: the others'
   * descriptions of its status leave it out.
   */
  namedOnly?: true;
} & (keyof ErrorFacts[Code] extends never
  ? { example?: never }
  : {
      /** The facts the API descriptions word it with: the defaults of the configuration. */
      example: ErrorFacts[Code];
    });

// A minute: the window of the per-key and demo limits.
const EXAMPLE_RETRY_AFTER_MS = 60_000;

/** Whole seconds for `Retry-After`: rounded up, and never 0 ("retry now" while refused). */
const retryAfterSeconds = (retryAfterMs: number): number =>
  Math.max(1, Math.ceil(retryAfterMs / 1000));

const retryAfter = (facts: { retryAfterMs: number }) => ({
  "Retry-After": String(retryAfterSeconds(facts.retryAfterMs)),
});

const UNAVAILABLE: Record<UnavailableDependency, string> = {
  database: "The database could not be reached or is overloaded.",
  pdf_store: "The document store could not be reached.",
  font_store: "The fonts this document needs could not be loaded.",
  rate_limiter: "The rate limiter could not be reached.",
};

const ERROR_CATALOG: { [Code in ErrorCode]: CatalogEntry<Code> } = {
  MALFORMED_JSON: {
    status: 400,
    message: () => "The request body must be a JSON object in UTF-8.",
  },
  UNAUTHENTICATED: {
    status: 401,
    api: "customers",
    message: () =>
      "A valid API key is required: send it as `Authorization: Bearer <key>`.",
    headers: () => ({ "WWW-Authenticate": "Bearer" }),
  },
  IP_NOT_ALLOWED: {
    status: 403,
    api: "customers",
    message: () =>
      "This API key may not be used from the IP address of this request.",
  },
  NOT_FOUND: {
    status: 404,
    message: () => "The requested resource does not exist.",
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    example: { method: "PATCH", allowed: ["GET", "HEAD", "POST"] },
    message: ({ method, allowed }) =>
      `This path does not support ${method}; it supports ${allowed.join(", ")}.`,
    headers: ({ allowed }) => ({ Allow: allowed.join(", ") }),
  },
  REFERENCE_CONFLICT: {
    status: 409,
    api: "customers",
    message: () => "This reference is already used by another request.",
  },
  DOCUMENT_WINDOW_EXPIRED: {
    status: 409,
    api: "customers",
    message: () =>
      `The document issued for this request is no longer available (${READ_WINDOW_HOURS} hours).`,
  },
  DOCUMENT_ALREADY_RECTIFIED: {
    status: 409,
    api: "customers",
    message: () =>
      "This version has already been rectified; only its latest version can be corrected or deleted.",
  },
  DELETE_WINDOW_EXPIRED: {
    status: 409,
    api: "customers",
    message: () =>
      `A document can be deleted only within ${DELETE_WINDOW_HOURS} hours of its creation.`,
  },
  DOCUMENT_ALREADY_DELIVERED: {
    status: 409,
    api: "customers",
    message: () => "A document handed to the carrier cannot be deleted.",
  },
  DOCUMENT_ALREADY_USED: {
    status: 409,
    api: "customers",
    message: () =>
      "A document already used for the transport cannot be deleted.",
  },
  DOCUMENT_ALREADY_ACCESSED: {
    status: 409,
    api: "customers",
    message: () =>
      "The document's QR link has already been used, so it cannot be deleted.",
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    example: { maxBytes: DEFAULT_MAX_BODY_BYTES.real },
    message: ({ maxBytes }) =>
      `The request body exceeds the limit of ${maxBytes} bytes.`,
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    message: () =>
      "Send the body as JSON with `Content-Type: application/json`.",
  },
  RATE_LIMITED: {
    status: 429,
    api: "customers",
    example: { retryAfterMs: EXAMPLE_RETRY_AFTER_MS },
    message: ({ retryAfterMs }) =>
      `Too many requests with this API key; retry in ${retryAfterSeconds(retryAfterMs)} seconds.`,
    headers: retryAfter,
  },
  DEMO_RATE_LIMITED: {
    status: 429,
    api: "customers",
    example: { retryAfterMs: EXAMPLE_RETRY_AFTER_MS },
    message: ({ retryAfterMs }) =>
      `Too many demo requests from this network (IP address, or IPv6 /64); retry in ${retryAfterSeconds(retryAfterMs)} seconds.`,
    headers: retryAfter,
  },
  // No Retry-After: the limit of a session never resets.
  DEMO_DOCUMENT_LIMIT: {
    status: 429,
    api: "customers",
    example: { limit: DEFAULT_DEMO_DOCUMENTS_PER_TOKEN },
    message: ({ limit }) =>
      `A demo session may issue ${limit} documents, corrections included; request a new demo token.`,
  },
  INTERNAL_ERROR: {
    status: 500,
    example: { requestId: "0b6c7a52-3f1e-4d8a-9c2b-5e4f3a2d1c0b" },
    message: ({ requestId }) =>
      `An unexpected error occurred. Quote request id ${requestId} when contacting support.`,
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    example: { dependency: "database", retryAfterMs: OUTAGE_RETRY_AFTER_MS },
    message: ({ dependency, retryAfterMs }) =>
      `${UNAVAILABLE[dependency]} Retry in ${retryAfterSeconds(retryAfterMs)} seconds.`,
    headers: retryAfter,
  },
  DEMO_UNAVAILABLE: {
    status: 503,
    api: "customers",
    message: () => "The public demo is switched off.",
  },
  DEMO_NOT_ALLOWED: {
    status: 403,
    api: "customers",
    namedOnly: true,
    message: () =>
      "Demo tokens have no events or webhook endpoints: use an API key (sk_test_ or sk_live_).",
  },
  WEBHOOK_ENDPOINT_LIMIT: {
    status: 409,
    api: "customers",
    namedOnly: true,
    example: { limit: MAX_WEBHOOK_ENDPOINTS },
    message: ({ limit }) =>
      `An API key may have at most ${limit} webhook endpoints; delete one to add another.`,
  },
  OPS_UNAUTHENTICATED: {
    status: 401,
    api: "ops",
    message: () =>
      "The operations API requires the support secret: send it as `Authorization: Bearer <secret>`.",
    headers: () => ({ "WWW-Authenticate": "Bearer" }),
  },
  OPS_IP_NOT_ALLOWED: {
    status: 403,
    api: "ops",
    message: () =>
      "The operations API may not be used from the IP address of this request.",
  },
  GATE_UNAUTHENTICATED: {
    status: 401,
    api: "gate",
    message: () =>
      "The eFTI platform interface requires a gate key: send it as `Authorization: Bearer <key>`.",
    headers: () => ({ "WWW-Authenticate": "Bearer" }),
  },
  GATE_IP_NOT_ALLOWED: {
    status: 403,
    api: "gate",
    message: () =>
      "The eFTI platform interface may not be used from the IP address of this request.",
  },
  GATE_RATE_LIMITED: {
    status: 429,
    api: "gate",
    example: { retryAfterMs: GATE_REFUSALS_KEPT.windowMs },
    message: ({ retryAfterMs }) =>
      `Too many refused requests from this network (IP address, or IPv6 /64); retry in ${retryAfterSeconds(retryAfterMs)} seconds.`,
    headers: retryAfter,
  },
  INVALID_SUBSET_ID: {
    status: 400,
    api: "gate",
    example: { served: SUBSETS_SERVED_ALWAYS },
    message: ({ served }) =>
      `Give \`subsetId\` at least once, each one of \`${FULL_SUBSETS}\` (all of them) or ${served.join(", ")}.`,
  },
  FOLLOW_UP_NOT_TEXT: {
    status: 415,
    api: "gate",
    message: () =>
      "Send the follow-up message with `Content-Type: text/plain`, in UTF-8, ISO-8859-1 or windows-1252.",
  },
  INVALID_FOLLOW_UP: {
    status: 400,
    api: "gate",
    message: () =>
      "The follow-up message must be non-empty text, in UTF-8 when its charset is utf-8.",
  },
};

/**
 * Each code `api` answers with `status`, worded for its example facts: what
 * the API descriptions say of that status.
 */
export function codesOf(status: number, api: Api) {
  return Object.entries(ERROR_CATALOG).flatMap(([code, entry]) => {
    const {
      example = {},
      message,
      headers,
      namedOnly = false,
    } = entry as CatalogEntry<ErrorCode>;
    const facts = example as never;
    return entry.status === status && (entry.api ?? api) === api
      ? [
          {
            code: code as ErrorCode,
            message: message(facts),
            headers: headers?.(facts) ?? {},
            namedOnly,
          },
        ]
      : [];
  });
}

/** How the API answers a domain error: its status, its one error item and its headers. */
export function answerTo<Code extends ErrorCode>(
  error: DomainError<Code>,
): {
  status: ContentfulStatusCode;
  item: ErrorItem;
  headers: Record<string, string>;
} {
  const entry: CatalogEntry<Code> = ERROR_CATALOG[error.code];
  return {
    status: entry.status,
    item: {
      field: error.field,
      code: error.code,
      message: entry.message(error.facts),
    },
    headers: entry.headers?.(error.facts) ?? {},
  };
}
