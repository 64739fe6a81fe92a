import * as z from "zod";
import {
  codePointName,
  printableCodePointRanges,
  unprintableCodePoint,
} from "../font-coverage/coverage";
import { component } from "./component";
import { contractIssue } from "./issues";

// C0 controls other than tab, line feed and carriage return, DEL, and
// unpaired surrogates (in `u` mode a lone surrogate is a code point of its
// own): no document can hold them.
const UNPRINTED: readonly [number, number][] = [
  [0x00, 0x08],
  [0x0b, 0x0c],
  [0x0e, 0x1f],
  [0x7f, 0x7f],
  [0xd800, 0xdfff],
];

/**
 * `ranges` as the items of a regular expression's character class, written
 * in the syntax ECMA-262 (`u` mode), Python's `re` and Rust's regex all read
 * alike, so that every fuzzer and validator reads the OpenAPI document: a
 * BMP code point as `\uXXXX`, one beyond it as the character itself (the
 * escapes that name one, `\u{…}`, `\U…` or a surrogate pair, differ among
 * them).
 */
const classItems = (ranges: readonly (readonly [number, number])[]): string =>
  ranges
    .map(([first, last]) =>
      first === last
        ? classItem(first)
        : `${classItem(first)}-${classItem(last)}`,
    )
    .join("");
const classItem = (codePoint: number): string =>
  codePoint > 0xffff
    ? String.fromCodePoint(codePoint)
    : `\\u${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;

/** The pattern of the texts made only of the code points in `ranges`. */
const onlyCodePointsIn = (
  ranges: readonly (readonly [number, number])[],
): string => `^[${classItems(ranges)}]*$`;

const NO_CONTROL_CHARACTERS_U = new RegExp(
  `^[^${classItems(UNPRINTED)}]*$`,
  "u",
);
const isPrintable = (value: string): boolean =>
  NO_CONTROL_CHARACTERS_U.test(value);

/** The code points outside `ranges` (sorted, apart). */
function outside(ranges: readonly (readonly [number, number])[]) {
  const gaps: [number, number][] = [];
  let next = 0;
  for (const [first, last] of ranges) {
    if (first > next) gaps.push([next, first - 1]);
    next = last + 1;
  }
  if (next <= 0x10ffff) gaps.push([next, 0x10ffff]);
  return gaps;
}

/**
 * Text without UNPRINTED, for the OpenAPI document: a positive class, since
 * Rust's regex refuses a surrogate in a pattern.
 */
const NOT_PRINTED_TEXT = {
  description:
    "No control characters other than tab and line breaks, no unpaired surrogates: otherwise 422 INVALID_FORMAT.",
  pattern: onlyCodePointsIn(outside(UNPRINTED)),
};

/**
 * Text every character of which the document fonts print: the JSON Schema
 * of what `text` accepts, a component of the OpenAPI document rather than
 * repeated in every field. Its pattern walks all code points, so it is built
 * with the document, not on every cold start. Fields point to it through
 * PRINTED_TEXT below.
 */
component(
  "PrintedText",
  z.string().meta({
    description:
      "Text the document prints: no control characters other than tab and line breaks, no unpaired surrogates, no code point the document fonts cannot print (unassigned, private use, or without a glyph). Otherwise 422 INVALID_FORMAT, the message naming the code point.",
    get pattern() {
      return onlyCodePointsIn(printableCodePointRanges(isPrintable));
    },
  }),
);
const PRINTED_TEXT = { $ref: "#/components/schemas/PrintedText" };

/** Length in characters (Unicode code points), not UTF-16 units or bytes. */
const characterCount = (value: string): number => {
  let count = 0;
  for (const _ of value) count++;
  return count;
};

/** A length error (TOO_SHORT, TOO_LONG) for `value`, or null when it fits. */
export function lengthIssue(
  value: string,
  min: number,
  max: number,
): z.core.$ZodRawIssue | null {
  const length = characterCount(value);
  if (length < min) {
    return contractIssue(
      "TOO_SHORT",
      min === 1 ? "Must not be empty." : `Must be at least ${min} characters.`,
      value,
    );
  }
  if (length > max) {
    return contractIssue(
      "TOO_LONG",
      `Must be at most ${max} characters.`,
      value,
    );
  }
  return null;
}

/**
 * Printable text of `min..max` characters: the PDF prints it, so every
 * character must have a glyph in one of the document's fonts (unassigned
 * and private-use code points never have one), unless `printed` is false.
 * The check is custom (for the contract's codes), so its rules are also
 * stated as metadata for the OpenAPI document: the lengths (JSON Schema also
 * counts code points) and the characters as a pattern.
 */
export const text = (min: number, max: number, { printed = true } = {}) =>
  z
    .string()
    .check((ctx) => {
      const tooLongOrShort = lengthIssue(ctx.value, min, max);
      if (tooLongOrShort) {
        ctx.issues.push(tooLongOrShort);
      } else if (!isPrintable(ctx.value)) {
        ctx.issues.push(
          contractIssue(
            "INVALID_FORMAT",
            "Must not contain control characters or unpaired surrogates.",
            ctx.value,
          ),
        );
      } else if (printed) {
        const unprintable = unprintableCodePoint(ctx.value);
        if (unprintable !== null) {
          ctx.issues.push(
            contractIssue(
              "INVALID_FORMAT",
              `${codePointName(unprintable)} cannot be printed.`,
              ctx.value,
            ),
          );
        }
      }
    })
    .meta({
      minLength: min,
      maxLength: max,
      ...(printed ? PRINTED_TEXT : NOT_PRINTED_TEXT),
    });

/** An optional field: absent and null both mean "not given" and normalize to null. */
export const optional = <S extends z.ZodType>(schema: S) =>
  schema.nullish().transform((value) => value ?? null);
