import * as z from "zod";
import { codePointName, unprintableCodePoint } from "../font-coverage/coverage";
import { contractIssue } from "./issues";

// C0 controls other than tab, line feed and carriage return, and DEL: no
// document can print them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters refused
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** Text a document can print: no control characters, no unpaired surrogates. */
const isPrintable = (value: string): boolean =>
  value.isWellFormed() && !CONTROL_CHARACTERS.test(value);

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
 * The check is custom (for the contract's codes), so the lengths are also
 * stated as metadata for the OpenAPI document; JSON Schema also counts code
 * points.
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
    .meta({ minLength: min, maxLength: max });

/** An optional field: absent and null both mean "not given" and normalize to null. */
export const optional = <S extends z.ZodType>(schema: S) =>
  schema.nullish().transform((value) => value ?? null);
