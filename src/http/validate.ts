import { zValidator } from "@hono/zod-validator";
import type { MiddlewareHandler, ValidationTargets } from "hono";
import type { z } from "zod";
import type { AppEnv } from "../env";
import { ValidationError } from "../errors";
import { toErrorItems } from "../schemas/validation-errors";
import type { BodyLimit } from "./body-limit";
import { readJsonObject } from "./json-body";

const invalid = (issues: z.core.$ZodIssue[], input: unknown): ValidationError =>
  new ValidationError(toErrorItems(issues, input));

/**
 * zValidator for a schema of the contract: a failure is the 422 that lists
 * every error, never zod's own format.
 */
export const validate = <
  Target extends keyof ValidationTargets,
  Schema extends z.ZodType,
>(
  target: Target,
  schema: Schema,
) =>
  zValidator(target, schema, (result) => {
    if (!result.success) {
      // On failure `data` is the input as received.
      throw invalid(result.error.issues, result.data);
    }
  });

/** A request sent without a body, or with an empty one. */
const withoutBody = (request: Request): boolean =>
  request.body === null || request.headers.get("Content-Length") === "0";

/**
 * Reads the JSON body under the route's size limit, then validates it like
 * `validate`. An `optional` body left out is `{}`.
 */
export const validateJsonBody = <Schema extends z.ZodType>(
  schema: Schema,
  limit: BodyLimit,
  optional?: true,
): MiddlewareHandler<
  AppEnv,
  string,
  { in: { json: z.input<Schema> }; out: { json: z.output<Schema> } }
> =>
  async function validateJsonBody(c, next) {
    const body =
      optional && withoutBody(c.req.raw)
        ? {}
        : await readJsonObject(c.req.raw, limit(c));
    const result = schema.safeParse(body);
    if (!result.success) throw invalid(result.error.issues, body);
    c.req.addValidatedData("json", result.data as object);
    await next();
  };
