import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../env";
import { ApiError, internalError, notFound } from "../errors";

function errorResponse(c: Context<AppEnv>, error: ApiError): Response {
  return c.json(error.body, error.status, error.headers);
}

/** Maps every failure, ours or Hono's, into the contract's error body. */
export const handleError: ErrorHandler<AppEnv> = (error, c) => {
  if (error instanceof ApiError) {
    if (error.cause instanceof Error) logFailure(c, error.cause);
    return errorResponse(c, error);
  }
  if (error instanceof HTTPException && error.status === 404) {
    return errorResponse(c, notFound());
  }
  logFailure(c, error);
  return errorResponse(c, internalError(c.get("requestId")));
};

/** The stack goes to the log, keyed by request id, never to the caller. */
function logFailure(c: Context<AppEnv>, error: Error): void {
  console.error(
    JSON.stringify({
      request_id: c.get("requestId"),
      error: error.name,
      message: error.message,
      stack: error.stack,
    }),
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
    ApiError.of(
      "METHOD_NOT_ALLOWED",
      `This path does not support ${c.req.method}; it supports ${methods.join(", ")}.`,
      { headers: { Allow: methods.join(", ") } },
    ),
  );
