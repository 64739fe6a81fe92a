import * as z from "zod";
import { contractIssue } from "./issues";

const INTEGER_DIGITS = 15;
const DECIMALS = 6;

// docs/api.md, Goods: greater than zero, up to 15 integer digits and 6 decimals, i.e.
// `^(?!0+(?:\.0+)?$)(?:0|[1-9][0-9]{0,14})(?:\.[0-9]{1,6})?$`, written
// without its lookahead so that generators of test data can follow the
// OpenAPI document's pattern: a whole part from 1, or 0 and decimals that
// are not all zeros (by the position of their first non-zero digit).
const NONZERO_DECIMALS = Array.from(
  { length: DECIMALS },
  (_, zeros) => `${"0".repeat(zeros)}[1-9][0-9]{0,${DECIMALS - 1 - zeros}}`,
).join("|");
const POSITIVE_DECIMAL = new RegExp(
  `^(?:[1-9][0-9]{0,${INTEGER_DIGITS - 1}}(?:\\.[0-9]{1,${DECIMALS}})?|0\\.(?:${NONZERO_DECIMALS}))$`,
);

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
      z.number().meta({
        exclusiveMinimum: 0,
        exclusiveMaximum: 10 ** INTEGER_DIGITS,
        multipleOf: 10 ** -DECIMALS,
      }),
    ],
    { error: "Expected a decimal string or a number." },
  )
  .meta({
    description: `Kilograms greater than zero, up to ${INTEGER_DIGITS} integer digits and ${DECIMALS} decimals: a decimal string (advised, keeps precision) or a number, judged by its shortest decimal form (0.1 is accepted, 0.30000000000000004 is not). Returned as a string without trailing zeros; 422 INVALID_DECIMAL otherwise.`,
    examples: ["12345.678"],
  })
  .transform(String)
  .check((ctx) => {
    if (!POSITIVE_DECIMAL.test(ctx.value)) {
      ctx.issues.push(invalidDecimal(ctx.value));
    }
  })
  .transform(normalizeDecimal);
