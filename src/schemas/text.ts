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
const UNPRINTED = String.raw`\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uD800-\uDFFF`;
const NO_CONTROL_CHARACTERS = `^[^${UNPRINTED}]*$`;
const NO_CONTROL_CHARACTERS_U = new RegExp(NO_CONTROL_CHARACTERS, "u");
const isPrintable = (value: string): boolean =>
  NO_CONTROL_CHARACTERS_U.test(value);

const escapeCodePoint = (codePoint: number): string =>
  `\\u{${codePoint.toString(16).toUpperCase()}}`;

/**
 * Text every character of which the document fonts print: the JSON Schema
 * (`u` mode) of what `text` accepts, a component of the OpenAPI document
 * rather than repeated in every field. Its
 * pattern walks all code points, so it is built with the document, not on
 * every cold start. Fields point to it through PRINTED_TEXT below.
 */
component(
  "PrintedText",
  z.string().meta({
    description:
      "Text the document prints: no control characters other than tab and line breaks, no unpaired surrogates, no code point the document fonts cannot print (unassigned, private use, or without a glyph). Otherwise 422 INVALID_FORMAT, the message naming the code point.",
    get pattern() {
      const ranges = printableCodePointRanges(isPrintable).map(
        ([first, last]) =>
          first === last
            ? escapeCodePoint(first)
            : `${escapeCodePoint(first)}-${escapeCodePoint(last)}`,
      );
      return `^[${ranges.join("")}]*$`;
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
      ...(printed ? PRINTED_TEXT : { pattern: NO_CONTROL_CHARACTERS }),
    });

/** An optional field: absent and null both mean "not given" and normalize to null. */
export const optional = <S extends z.ZodType>(schema: S) =>
  schema.nullish().transform((value) => value ?? null);
