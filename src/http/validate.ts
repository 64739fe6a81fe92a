import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { z } from "zod";
import { ApiError } from "../errors";
import { toErrorItems } from "../schemas/validation-errors";

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
      throw ApiError.validation(toErrorItems(result.error.issues, result.data));
    }
  });
