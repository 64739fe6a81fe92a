import * as z from "zod";
import { contractIssue } from "./issues";

// ASCII-only upper-casing: `ß` must not become `SS` and pass as a code.
export const asciiUpperCase = (value: string): string =>
  value.replace(/[a-z]/g, (letter) => letter.toUpperCase());

/** Spain's code in any case, as the service upper-cases it: a pattern for the OpenAPI document. */
export const SPAIN_PATTERN = "^[Ee][Ss]$";

/** CountryCode (docs/api.md, Normalization): two letters, upper-cased; ISO membership is not checked. */
export const countryCode = z
  .string()
  .transform(asciiUpperCase)
  .check((ctx) => {
    if (!/^[A-Z]{2}$/.test(ctx.value)) {
      ctx.issues.push(
        contractIssue(
          "INVALID_FORMAT",
          "Must be a two-letter country code such as ES.",
          ctx.value,
        ),
      );
    }
  })
  // For the OpenAPI document: the check above is custom.
  .meta({
    pattern: "^[A-Za-z]{2}$",
    description: "Two-letter country code, upper-cased by the service.",
    examples: ["ES"],
  });
