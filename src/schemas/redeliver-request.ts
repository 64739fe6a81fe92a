import * as z from "zod";
import { component } from "./component";

/** The optional body of a redelivery (docs/api.md, Events); no body is `{}`. */
export const redeliverRequestSchema = component(
  "RedeliverRequest",
  z.strictObject({
    endpoint_id: z
      .string()
      .min(1)
      .optional()
      .meta({
        description:
          "Only this endpoint: one that a redelivery without it would reach, else 422 `INVALID_VALUE`.",
        examples: ["we_4bT9qLm2Xc8Rz1Vn6Kd3Hs7P"],
      }),
  }),
);

export type RedeliverRequest = z.output<typeof redeliverRequestSchema>;
