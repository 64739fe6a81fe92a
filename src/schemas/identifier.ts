import * as z from "zod";
import { lengthIssue } from "./text";
import { normalizeIdentifier } from "./validators/identifier";

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
      pattern: `^[ -]*(?:[A-Za-z0-9][ -]*){1,${maxLength}}$`,
      description: `Upper-cased, spaces and hyphens dropped, then 1..${maxLength} letters and digits in a format of the country. ${formats}`,
    });
