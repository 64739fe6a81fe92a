import * as z from "zod";

/** The one error body of the API (docs/api.md, Errors), for the OpenAPI document. */
export const errorBodySchema = z.strictObject({
  errors: z
    .array(
      z.strictObject({
        field: z.string().nullable().meta({
          description:
            "Dotted path of the field (`shipper.tax_id`), the query parameter, or null.",
        }),
        code: z.string().meta({ examples: ["REFERENCE_CONFLICT"] }),
        message: z.string(),
      }),
    )
    .min(1),
});

export type ErrorBody = z.output<typeof errorBodySchema>;
