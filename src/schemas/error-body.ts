import * as z from "zod";
import { component } from "./component";

/** The one error body of the API (docs/api.md, Errors), for the OpenAPI document: ErrorBody of src/errors.ts. */
export const errorBodySchema = component(
  "ErrorBody",
  z.strictObject({
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
  }),
);
