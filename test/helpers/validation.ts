import type { z } from "zod";
import type { ErrorItem } from "../../src/errors";
import { toErrorItems } from "../../src/schemas/validation-errors";

/** The contract's 422 items for an input, or [] when it is valid. */
export function errorsOf(schema: z.ZodType, input: unknown): ErrorItem[] {
  const result = schema.safeParse(input);
  return result.success ? [] : toErrorItems(result.error.issues, input);
}

/** The `[field, code]` pairs of the 422 items, for compact assertions. */
export const fieldCodes = (schema: z.ZodType, input: unknown) =>
  errorsOf(schema, input).map((error) => [error.field, error.code]);
