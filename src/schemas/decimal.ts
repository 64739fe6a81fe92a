import * as z from "zod";
import { contractIssue } from "./issues";

// docs/api.md, Goods, verbatim: greater than zero, up to 15 integer digits and 6 decimals.
const POSITIVE_DECIMAL =
  /^(?!0+(?:\.0+)?$)(?:0|[1-9][0-9]{0,14})(?:\.[0-9]{1,6})?$/;

/** Drops trailing decimal zeros, and the point when nothing follows it. */
const normalizeDecimal = (value: string): string =>
  value.includes(".") ? value.replace(/\.?0+$/, "") : value;

const invalidDecimal = (input: unknown) =>
  contractIssue(
    "INVALID_DECIMAL",
    "Must be a decimal greater than zero with up to 15 integer digits and 6 decimals, written with a point.",
    input,
  );

/** PositiveDecimal: a string, returned without trailing decimal zeros. */
export const positiveDecimal = z
  .string()
  .check((ctx) => {
    if (!POSITIVE_DECIMAL.test(ctx.value)) {
      ctx.issues.push(invalidDecimal(ctx.value));
    }
  })
  // For the OpenAPI document: the check above is custom.
  .meta({ pattern: POSITIVE_DECIMAL.source, examples: ["12.5"] })
  .transform(normalizeDecimal);

/**
 * WeightKilograms: a PositiveDecimal string, or a JSON number judged by its
 * shortest decimal form, so `0.1` is accepted while `1e-7` and
 * `0.30000000000000004` (more than 6 decimals) are rejected, never rounded.
 */
export const weightKilograms = z
  .union(
    [
      z.string().meta({ pattern: POSITIVE_DECIMAL.source }),
      z.number().meta({ exclusiveMinimum: 0, exclusiveMaximum: 1e15 }),
    ],
    { error: "Expected a decimal string or a number." },
  )
  .meta({
    description:
      "Kilograms, as a decimal string (advised, keeps precision) or a number; up to 6 decimals. Returned as a string without trailing zeros.",
    examples: ["12345.678"],
  })
  .transform(String)
  .check((ctx) => {
    if (!POSITIVE_DECIMAL.test(ctx.value)) {
      ctx.issues.push(invalidDecimal(ctx.value));
    }
  })
  .transform(normalizeDecimal);
