import * as z from "zod";
import { component } from "./component";
import { timestamp } from "./document-result";
import { EVENT_SCHEMAS, eventSchema } from "./event";

// What the events API answers (docs/api.md, Events): pages of events, and an
// event with its deliveries to the caller's webhook endpoints.

/** Where a delivery of an event to one endpoint stands. */
export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;

export const eventListSchema = component(
  "EventList",
  z.strictObject({
    data: z.array(eventSchema),
    has_more: z.boolean().meta({
      description:
        "Whether older events follow: ask again with `starting_after` the last `id` of `data`.",
    }),
  }),
);

/**
 * Why an attempt failed when no status says it: no answer (`timeout`,
 * `connection`), a 3xx never followed (`redirect`), or nothing posted
 * because its secret would not open (`signing`).
 */
export const ATTEMPT_ERRORS = [
  "timeout",
  "connection",
  "redirect",
  "signing",
] as const;

const deliveryAttemptSchema = z.strictObject({
  attempted_at: timestamp,
  status_code: z.int().nullable().meta({
    description: "The endpoint's HTTP status; null when no answer came.",
  }),
  error: z
    .enum(ATTEMPT_ERRORS)
    .nullable()
    .meta({
      description:
        "Why the attempt failed when its status does not say: `timeout` or `connection` (no answer), `redirect` (a 3xx, never followed), `signing` (nothing was posted: the endpoint's secret could not be opened on our side); null otherwise.",
      examples: ["timeout"],
    }),
  duration_ms: z.int().min(0),
});

const eventDeliverySchema = component(
  "EventDelivery",
  z.strictObject({
    endpoint_id: z.string().meta({ examples: ["we_4bT9qLm2Xc8Rz1Vn6Kd3Hs7P"] }),
    status: z.enum(DELIVERY_STATUSES).meta({
      description:
        "`pending` until an attempt is answered with a 2xx (`delivered`) or the retries end (`failed`).",
    }),
    attempts: z
      .array(deliveryAttemptSchema)
      .meta({ description: "Every attempt so far, oldest first." }),
    next_attempt_at: timestamp.nullable().meta({
      description: "When the next attempt is due; null unless pending.",
    }),
  }),
);

const deliveries = z.array(eventDeliverySchema).meta({
  description:
    "One per webhook endpoint the event was sent to, or is being sent to.",
});

/** An event and its deliveries to the caller's endpoints. */
export const eventDetailSchema = component(
  "EventDetail",
  z.discriminatedUnion(
    "type",
    EVENT_SCHEMAS.map((event) => event.extend({ deliveries })) as unknown as [
      z.ZodObject,
      ...z.ZodObject[],
    ],
  ),
);

export type EventList = z.infer<typeof eventListSchema>;
type EventDelivery = z.infer<typeof eventDeliverySchema>;
export type EventDetail = z.infer<typeof eventSchema> & {
  deliveries: EventDelivery[];
};
