import * as z from "zod";
import { lengthIssue } from "./text";
import { normalizeIdentifier } from "./validators/identifier";

/**
 * The pattern of an identifier of `min..max` letters and digits once
 * normalized: any spaces and hyphens around them, letters in any case.
 */
export const identifierPattern = (min: number, max: number): string =>
  `^[ -]*(?:[A-Za-z0-9][ -]*){${min},${max}}$`;

/**
 * A tax id or a registration of at most `maxLength` characters, counted
 * after normalization. Every country's format is letters and digits only,
 * so the pattern states that too, around the spaces and hyphens normalization
 * drops; the formats per country, a rule of the object, are told in words.
 */
export const identifier = (maxLength: number, formats: string) =>
  z
    .string()
    .transform(normalizeIdentifier)
    .check((ctx) => {
      const tooLongOrShort = lengthIssue(ctx.value, 1, maxLength);
      if (tooLongOrShort) ctx.issues.push(tooLongOrShort);
    })
    .meta({
      pattern: identifierPattern(1, maxLength),
      description: `Upper-cased, spaces and hyphens dropped, then 1..${maxLength} letters and digits in a format of the country. ${formats}`,
    });
