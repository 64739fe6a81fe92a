import * as z from "zod";
import { component } from "./component";
import { webhookEndpointIdSchema } from "./webhook-endpoint";

/** The optional body of a redelivery (docs/api.md, Events); no body is `{}`. */
export const redeliverRequestSchema = component(
  "RedeliverRequest",
  z.strictObject({
    endpoint_id: webhookEndpointIdSchema.optional().meta({
      description:
        "Only this endpoint: one that a redelivery without it would reach, else 422 `INVALID_VALUE` (and `INVALID_FORMAT` for what cannot be an endpoint's id).",
    }),
  }),
);

export type RedeliverRequest = z.output<typeof redeliverRequestSchema>;
