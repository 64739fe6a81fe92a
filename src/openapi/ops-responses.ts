import * as z from "zod";
import { errorBodySchema } from "../schemas/error-body";
import type { ResponseObject } from "./responses";

// The operations API's own description (docs/operations.md), apart from the
// customers' document: its schemas are inlined, its errors worded for it.

/** A schema of the operations API as JSON Schema, inlined where it is used. */
export function inlineSchema(schema: z.ZodType, io: "input" | "output") {
  const { $schema, ...rest } = z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
  });
  return rest;
}

const OPS_ERRORS = {
  401: "Missing or wrong support secret (`OPS_UNAUTHENTICATED`).",
  403: "The caller's IP is not in `OPS_ALLOWED_IPS` (`OPS_IP_NOT_ALLOWED`).",
  404: "Nothing of that name (`NOT_FOUND`); every path answers it when `SUPPORT_KEYRING` is not set.",
  413: "Body over `MAX_BODY_BYTES`.",
  415: "A body whose Content-Type is not application/json.",
  422: "Validation failed: every error at once.",
  500: "Unexpected error; the message carries the request id.",
  503: "A dependency unreachable, or the audit trail could not be written (nothing was done).",
} as const;

export type OpsErrorStatus = keyof typeof OPS_ERRORS;

/** Every operation's refusals, and those of a body. */
export const OPS_ALWAYS: OpsErrorStatus[] = [401, 403, 404, 500, 503];
export const OPS_WITH_BODY: OpsErrorStatus[] = [...OPS_ALWAYS, 413, 415, 422];

const errorBody = inlineSchema(errorBodySchema, "output");

/** An operation's success answer (JSON of `schema`) and its error statuses. */
export const opsResponses = (
  status: number,
  description: string,
  schema: z.ZodType,
  errors: OpsErrorStatus[],
): Record<string, ResponseObject> => ({
  [status]: {
    description,
    content: { "application/json": { schema: inlineSchema(schema, "output") } },
  },
  ...Object.fromEntries(
    errors.map((error) => [
      String(error),
      {
        description: OPS_ERRORS[error],
        content: { "application/json": { schema: errorBody } },
      },
    ]),
  ),
});

export const SUPPORT_SECRET = [{ supportSecret: [] }];

export const OPS_SECURITY_SCHEMES = {
  supportSecret: {
    type: "http",
    scheme: "bearer",
    description:
      "`Authorization: Bearer <support secret>`: the base64 key of any version of SUPPORT_KEYRING.",
  },
};
