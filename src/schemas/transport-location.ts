import * as z from "zod";
import { asciiUpperCase, SPAIN_PATTERN } from "./country-code";
import { contractIssue } from "./issues";
import { optional, text } from "./text";

/** Domestic transport only: the country is upper-cased, then must be ES. */
const domesticCountry = z
  .string()
  .transform(asciiUpperCase)
  .check((ctx) => {
    if (ctx.value !== "ES") {
      ctx.issues.push(
        contractIssue(
          "INVALID_VALUE",
          "Must be ES: the service covers transport within Spain.",
          ctx.value,
        ),
      );
    }
  })
  .meta({
    pattern: SPAIN_PATTERN,
    description: "ES only (domestic transport); upper-cased by the service.",
  });

/** TransportLocation (docs/api.md, Locations): the real loading or unloading place. */
export const transportLocationSchema = z.strictObject({
  place: text(1, 255),
  street: optional(text(1, 255)),
  postal_code: optional(text(1, 255)),
  city: text(1, 255),
  country: domesticCountry,
});

export type TransportLocation = z.output<typeof transportLocationSchema>;
