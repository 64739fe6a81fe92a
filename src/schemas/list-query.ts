import * as z from "zod";
import { calendarDate } from "./calendar-date";
import { contractIssue } from "./issues";

// Query values arrive as text: `1` is an integer, `1.0`, `01` and `+1` are not.
const CANONICAL_INTEGER = /^(0|-?[1-9][0-9]*)$/;

/**
 * A query parameter given at most once: a repeated one (`?page=1&page=2`)
 * arrives as a list, which `schema` would only call the wrong type.
 */
export const singleValued = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value, ctx) => {
    if (Array.isArray(value)) {
      ctx.issues.push(
        contractIssue(
          "INVALID_TYPE",
          "The parameter is given more than once.",
          value,
        ),
      );
    }
    return value;
  }, schema);

const integerParameter = (
  fallback: number,
  min: number,
  max: number,
  rangeMessage: string,
) =>
  z
    .string()
    .regex(CANONICAL_INTEGER, {
      message:
        "Must be a whole number written without decimals or leading zeros.",
    })
    .transform(Number)
    .check(
      z.refine((value) => value >= min && value <= max, {
        message: rangeMessage,
        params: { code: "INVALID_VALUE" },
      }),
    )
    .optional()
    .transform((value) => value ?? fallback)
    // For the OpenAPI document: what the text above must spell.
    .meta({ type: "integer", minimum: min, maximum: max, default: fallback });

// The most entries a page of a list holds.
export const MAX_PAGE_LIMIT = 100;

/** A list's `limit`: 1..100, `fallback` when absent. */
export const limitParameter = (fallback: number) =>
  singleValued(
    integerParameter(
      fallback,
      1,
      MAX_PAGE_LIMIT,
      `Must be between 1 and ${MAX_PAGE_LIMIT}.`,
    ),
  );

/** Query of the list route; unknown parameters are ignored. */
export const listQuerySchema = z
  .object({
    page: singleValued(
      integerParameter(1, 1, Number.MAX_SAFE_INTEGER, "Must be 1 or more."),
    ),
    limit: limitParameter(25),
    from: singleValued(
      calendarDate.optional().meta({
        description:
          "Earliest transport date listed, a real calendar date (422 INVALID_DATE otherwise); on or before `to`.",
      }),
    ),
    to: singleValued(
      calendarDate.optional().meta({
        description:
          "Latest transport date listed, a real calendar date (422 INVALID_DATE otherwise); on or after `from` (422 INVALID_RANGE otherwise).",
      }),
    ),
  })
  .check(
    z.refine((query) => !query.from || !query.to || query.to >= query.from, {
      message: "Must be on or after `from`.",
      path: ["to"],
      params: { code: "INVALID_RANGE" },
      when: (payload) => payload.issues.length === 0,
    }),
  );

export type ListQuery = z.output<typeof listQuerySchema>;
