import type { z } from "zod";
import type { ResponseObject } from "../../../openapi/operation-contract";
import { jsonResponse } from "../../../openapi/responses";
import {
  type DocumentedErrorStatus,
  errorResponses,
} from "../../error-responses";

/** Every operation's refusals, and those of one with a body. */
export const OPS_ALWAYS: DocumentedErrorStatus[] = [401, 403, 404, 500, 503];
export const OPS_WITH_BODY: DocumentedErrorStatus[] = [
  ...OPS_ALWAYS,
  400,
  413,
  415,
  422,
];

/** An operation's success answer (JSON of `schema`) and its error statuses. */
export const opsResponses = (
  status: number,
  description: string,
  schema: z.ZodType,
  errors: DocumentedErrorStatus[],
): Record<string, ResponseObject> => ({
  [status]: jsonResponse(description, schema),
  ...errorResponses(errors, { api: "ops" }),
});
