import * as z from "zod";
import { component } from "./component";
import { timestamp } from "./document-result";
import { DOCUMENT_EVENT_TYPES } from "./event";
import { contractIssue } from "./issues";
import { lengthIssue, text } from "./text";
import {
  WEBHOOK_URL_MAX_LENGTH,
  type WebhookUrlPolicy,
  webhookUrlRefusal,
} from "./webhook-url";

// A webhook endpoint as the endpoints API takes and answers it (docs/api.md,
// Webhook endpoints). Its signing secret is in the answers of create and
// rotate-secret only.

/** The `events` of an endpoint that wants every type, those to come included. */
export const ALL_EVENT_TYPES = "*";

/** What an endpoint may ask for: each document event type, or every type (a ping is sent only on request). */
const SUBSCRIPTIONS = [...DOCUMENT_EVENT_TYPES, ALL_EVENT_TYPES] as const;
export type Subscription = (typeof SUBSCRIPTIONS)[number];

const subscription = z.enum(SUBSCRIPTIONS, {
  message: `Must be one of ${SUBSCRIPTIONS.join(", ")}.`,
});

// What the least strict deployment refuses is refused everywhere: checked
// with the rest of the body. Production's own refusals (http://, loopback)
// are checked by the rules, which know the deployment.
const REFUSED_IN_EVERY_DEPLOYMENT: WebhookUrlPolicy = {
  allowLoopbackHttp: true,
};

const webhookUrl = z
  .string()
  .check((ctx) => {
    const tooLongOrShort = lengthIssue(ctx.value, 1, WEBHOOK_URL_MAX_LENGTH);
    if (tooLongOrShort) {
      ctx.issues.push(tooLongOrShort);
      return;
    }
    const refusal = webhookUrlRefusal(ctx.value, REFUSED_IN_EVERY_DEPLOYMENT);
    if (refusal) {
      ctx.issues.push(contractIssue(refusal.code, refusal.message, ctx.value));
    }
  })
  .meta({
    format: "uri",
    maxLength: WEBHOOK_URL_MAX_LENGTH,
    description: `Where the events are POSTed, at most ${WEBHOOK_URL_MAX_LENGTH} characters: \`https://\`, with no user name or password, and no IP address of a private (10/8, 172.16/12, 192.168/16), loopback (127/8, ::1), link-local (169.254/16, fe80::/10), shared (100.64/10), multicast (224/4, ff00::/8), reserved (240/4), unspecified (0/8, ::) or unique-local (fc00::/7) range, IPv4-mapped IPv6 included, and not \`localhost\` or \`*.localhost\` (422 INVALID_FORMAT for the scheme, user or password, INVALID_VALUE for the host). Outside production, \`http://\` and loopback hosts are allowed too, for a receiver on the developer's machine.`,
    examples: ["https://tms.example.com/webhooks/deca"],
  });

const eventTypes = z
  .array(subscription)
  .min(1, { message: `List at least one event type, or "${ALL_EVENT_TYPES}".` })
  .check((ctx) => {
    if (ctx.value.includes(ALL_EVENT_TYPES) && new Set(ctx.value).size > 1) {
      ctx.issues.push(
        contractIssue(
          "INVALID_VALUE",
          `"${ALL_EVENT_TYPES}" stands for every type: list it alone.`,
          ctx.value,
        ),
      );
    }
  })
  .transform((types) => [...new Set(types)])
  .meta({
    // The rule above, for readers of the description: only types, or only "*".
    anyOf: [
      {
        type: "array",
        minItems: 1,
        items: { enum: [...DOCUMENT_EVENT_TYPES] },
      },
      { type: "array", minItems: 1, items: { const: ALL_EVENT_TYPES } },
    ],
    description: `The types of event the endpoint receives, or \`["${ALL_EVENT_TYPES}"]\` for every type, those added later included. A type listed twice counts once. A \`ping\` is sent only when asked for (\`POST /api/v1/webhook-endpoints/{endpoint_id}/test\`).`,
    examples: [["document.issued", "document.accessed"]],
  });

const description = text(1, 256, { printed: false }).meta({
  description: "Your note on the endpoint, never sent anywhere.",
});

export const createWebhookEndpointSchema = component(
  "CreateWebhookEndpointRequest",
  z.strictObject({
    url: webhookUrl,
    events: eventTypes,
    description: description
      .nullish()
      .transform((value) => value ?? null)
      .meta({
        description: "Your note on the endpoint; null or absent: none.",
      }),
  }),
);

export type CreateWebhookEndpoint = z.output<
  typeof createWebhookEndpointSchema
>;

const UPDATABLE = ["url", "events", "description", "enabled"];

export const updateWebhookEndpointSchema = component(
  "UpdateWebhookEndpointRequest",
  z
    .strictObject({
      url: webhookUrl.optional(),
      events: eventTypes.optional(),
      description: description.nullable().optional().meta({
        description: "Your note on the endpoint; null removes it.",
      }),
      enabled: z.boolean().optional().meta({
        description:
          "false stops its deliveries; true starts them again, and clears a disabling by the service (`disabled_reason`) and its failures so far (`failing_since`).",
      }),
    })
    .check(
      z.refine((body) => Object.keys(body).length > 0, {
        message: `Send at least one of ${UPDATABLE.map((name) => `\`${name}\``).join(", ")}.`,
        params: { code: "REQUIRED" },
        when: (payload) => payload.issues.length === 0,
      }),
    )
    .meta({
      minProperties: 1,
      description:
        "The fields to change, at least one; the others stay as they are.",
    }),
);

export type UpdateWebhookEndpoint = z.output<
  typeof updateWebhookEndpointSchema
>;

export const webhookEndpointIdSchema = z
  .string()
  .regex(/^we_[0-9A-Za-z]{24}$/)
  .meta({ examples: ["we_4kQ9xT2mB7rLw0ZcN5vH8pJd"] });

/** The path of an operation on one endpoint; a value that cannot be an endpoint's id is a 404. */
export const webhookEndpointPath = z.object({
  endpoint_id: webhookEndpointIdSchema.meta({
    description:
      "The endpoint's `id`; another key's is the same 404 as an unknown one.",
  }),
});

const endpointFields = {
  id: webhookEndpointIdSchema,
  url: z.string(),
  events: z.array(subscription),
  description: z.string().nullable(),
  enabled: z.boolean().meta({
    description: "Whether events are delivered to it now.",
  }),
  disabled_reason: z.enum(["failing", "revoked"]).nullable().meta({
    description:
      '"failing" when the service disabled it: every attempt failed for 3 days; `enabled: true` starts it again. "revoked" when its key was revoked: for good. null otherwise (also when you disabled it).',
  }),
  failing_since: timestamp.nullable().meta({
    description:
      "The first failed attempt since the last delivered one; null when the last attempt was delivered, or none failed.",
  }),
  previous_secret_expires_at: timestamp.nullable().meta({
    description:
      "When the secret the last rotation replaced stops signing beside the current one (or stopped: a time past); null when the secret was never rotated.",
  }),
  created_at: timestamp,
  updated_at: timestamp,
};

export const webhookEndpointSchema = component(
  "WebhookEndpoint",
  z.strictObject(endpointFields),
);

export type WebhookEndpoint = z.output<typeof webhookEndpointSchema>;

export const webhookEndpointWithSecretSchema = component(
  "WebhookEndpointWithSecret",
  z.strictObject({
    ...endpointFields,
    secret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]{43}=$/)
      .meta({
        description:
          "The signing secret (Standard Webhooks: `whsec_` and the base64 of 32 random bytes). Shown in this answer only: keep it where your receiver verifies signatures.",
        examples: ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw2ZEXwBmoPIU="],
      }),
  }),
);

export const webhookEndpointListSchema = component(
  "WebhookEndpointList",
  z.strictObject({ data: z.array(webhookEndpointSchema) }),
);
