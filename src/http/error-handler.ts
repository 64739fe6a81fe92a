import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../env";
import {
  DomainError,
  domainErrorBehind,
  type ErrorBody,
  notFound,
  ValidationError,
} from "../errors";
import { logFailure } from "../failure-log";
import { answerTo } from "./error-catalog";

function errorResponse(c: Context<AppEnv>, error: DomainError): Response {
  const { status, item, headers } = answerTo(error);
  return json(c, { errors: [item] }, status, headers);
}

const json = (
  c: Context<AppEnv>,
  body: ErrorBody,
  status: ContentfulStatusCode,
  headers: Record<string, string> = {},
): Response => c.json(body, status, headers);

/** Maps every failure, ours or Hono's, into the contract's error body. */
export const handleError: ErrorHandler<AppEnv> = (error, c) => {
  if (error instanceof ValidationError) {
    return json(c, { errors: error.items }, 422);
  }
  const refusal = domainErrorBehind(error);
  if (refusal) {
    if (refusal.cause instanceof Error) {
      logRequestFailure(c, refusal.cause, refusal);
    }
    return errorResponse(c, refusal);
  }
  if (error instanceof HTTPException && error.status === 404) {
    return errorResponse(c, notFound());
  }
  const internal = new DomainError("INTERNAL_ERROR", {
    requestId: c.get("requestId"),
  });
  logRequestFailure(c, error, internal);
  return errorResponse(c, internal);
};

/**
 * The stack goes to the log, keyed by request id, never to the caller; with
 * the answer's code, and what could not be reached for a 503, to count and
 * alert on (docs/operations.md "Watching production").
 */
function logRequestFailure(
  c: Context<AppEnv>,
  error: Error,
  answer: DomainError,
): void {
  const { facts } = answer;
  logFailure(
    {
      request_id: c.get("requestId"),
      code: answer.code,
      ...("dependency" in facts ? { dependency: facts.dependency } : {}),
    },
    error,
    { stack: true },
  );
}

export const handleNotFound: NotFoundHandler<AppEnv> = (c) =>
  errorResponse(c, notFound());

export const handleMethodNotAllowed = (
  c: Context<AppEnv>,
  methods: string[],
): Response =>
  errorResponse(
    c,
    new DomainError("METHOD_NOT_ALLOWED", {
      method: c.req.method,
      allowed: methods,
    }),
  );
