import * as z from "zod";
import { EVENT_SCHEMAS } from "../schemas/event";
import { EXAMPLE_EVENTS } from "../schemas/event-example";
import { componentRef } from "./components";

// The document's `webhooks` (OpenAPI 3.1): what the service POSTs to a
// webhook endpoint, one entry per type of event, each from its schema.

// What a receiver has to answer within, and how long a delivery is retried.
const ANSWER_WITHIN_SECONDS = 10;
const RETRIED_FOR_DAYS = 3;

const HEADERS = [
  {
    name: "webhook-id",
    description:
      "The event's `id`, the same on every attempt and redelivery: a delivery whose id was already processed is a duplicate.",
    example: EXAMPLE_EVENTS["document.accessed"].id,
  },
  {
    name: "webhook-timestamp",
    description:
      "When this attempt was sent, in Unix seconds; the Standard Webhooks libraries refuse one more than 5 minutes from the receiver's clock.",
    example: "1795261651",
  },
  {
    name: "webhook-signature",
    description:
      "`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded part of the endpoint's secret after `whsec_`. After a secret rotation, for 24 hours, two signatures separated by a space: one by the new secret, one by the old.",
    example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
  },
].map(({ name, description, example }) => ({
  name,
  in: "header",
  required: true,
  description,
  schema: { type: "string" },
  example,
}));

const DELIVERY = `DeCA POSTs the event as JSON (\`Content-Type: application/json\`, \`User-Agent: DeCA-Webhooks/1\`) to each enabled endpoint of the key that wants its type, signed as Standard Webhooks specifies: the headers \`webhook-id\`, \`webhook-timestamp\` and \`webhook-signature\`. Verify the signature over the raw body before trusting it. Answer any 2xx within ${ANSWER_WITHIN_SECONDS} s: the delivery is done. Anything else (another status, no answer in time, a redirect, which is never followed) is retried with exponential backoff and jitter for ${RETRIED_FOR_DAYS} days, then the delivery is failed; an endpoint that failed every attempt for ${RETRIED_FOR_DAYS} days is disabled. Deliveries come at least once and in no set order: drop a \`webhook-id\` already processed, and order by the event's \`created_at\` (or read \`GET /api/v1/events\`).`;

const RETRIED = `Not delivered: retried with backoff for ${RETRIED_FOR_DAYS} days.`;

/** `document.efti_follow_up` → `documentEftiFollowUpEvent`: lowerCamelCase, as every operationId. */
const operationIdOf = (type: string): string =>
  `${type.replace(/[._](\w)/g, (_, letter: string) => letter.toUpperCase())}Event`;

/** The `webhooks` of the API's document: one POST per type of event. */
export function webhookItems() {
  return Object.fromEntries(
    EVENT_SCHEMAS.map((schema) => {
      const type = schema.shape.type.value;
      const what = z.globalRegistry.get(schema)?.description ?? "";
      return [
        type,
        {
          post: {
            operationId: operationIdOf(type),
            summary: `${type}: ${what.split(/[:;.]/)[0]}`,
            description: `${what}\n\n${DELIVERY}`,
            tags: ["events"],
            security: [],
            parameters: HEADERS,
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: componentRef(schema),
                  example: EXAMPLE_EVENTS[type],
                },
              },
            },
            responses: {
              "2XX": {
                description: `Delivered: any 2xx within ${ANSWER_WITHIN_SECONDS} s. Its body is not read.`,
              },
              "4XX": { description: RETRIED },
              "5XX": { description: RETRIED },
            },
          },
        },
      ];
    }),
  );
}
