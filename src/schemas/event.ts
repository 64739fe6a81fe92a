import * as z from "zod";
import { component } from "./component";
import { timestamp } from "./document-result";
import { KEY_ENVIRONMENTS } from "./environment";

// An event as the events API lists it and a webhook delivery posts it
// (docs/webhooks.md). Thin on purpose: who, what and when, never the QR link
// or its secret, a PDF, transport data, metadata or a key; a receiver that
// needs more reads the document within its window. Open objects, not strict:
// fields may be added to an event, never removed or changed, and a receiver
// generated from the published schemas must take the added ones.

/** The types of event a document's facts give. */
export const DOCUMENT_EVENT_TYPES = [
  "document.issued",
  "document.rectified",
  "document.deleted",
  "document.accessed",
  "document.efti_follow_up",
] as const;

/** How a document was accessed: its QR link opened, or an eFTI gate's read of its data. */
export const ACCESSED_VIA = ["qr", "efti_gate"] as const;
export type AccessedVia = (typeof ACCESSED_VIA)[number];

/** Every type of event: the document's, and the test an endpoint is sent. */
export const EVENT_TYPES = [...DOCUMENT_EVENT_TYPES, "ping"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const eventIdSchema = z
  .string()
  .regex(/^evt_[0-9a-f]{24}$/)
  .meta({ examples: ["evt_5f0c2a9e41d37b68a0c4e1f2"] });

/** An event's id in a path (`/api/v1/events/{id}`); another text names no event: 404. */
export const eventPath = z.object({ id: eventIdSchema });

/** The document an event is about, as it was when its fact happened. */
const documentFacts = {
  uuid: z.uuid(),
  reference: z.string().nullable(),
  rectifies_uuid: z
    .uuid()
    .nullable()
    .meta({ description: "The version this one corrects, if any." }),
  created_at: timestamp,
  transport_date: z.iso.date(),
};

const envelope = <Type extends EventType, Data extends z.ZodType>(
  type: Type,
  data: Data,
  description: string,
) =>
  z
    .object({
      id: eventIdSchema,
      type: z.literal(type),
      created_at: timestamp.meta({
        description: "When the fact happened (UTC, milliseconds).",
      }),
      environment: z.enum(KEY_ENVIRONMENTS).meta({
        description: "The environment of the key that issued the document.",
      }),
      data,
    })
    .meta({ description });

const documentIssuedEvent = component(
  "DocumentIssuedEvent",
  envelope(
    "document.issued",
    z.object(documentFacts),
    "A document was issued: a create, or a correction (its `rectifies_uuid` names the version it corrects).",
  ),
);

const documentRectifiedEvent = component(
  "DocumentRectifiedEvent",
  envelope(
    "document.rectified",
    z.object(documentFacts),
    "A correction replaced this version; its own `document.issued` event names this one in `rectifies_uuid`.",
  ),
);

const documentDeletedEvent = component(
  "DocumentDeletedEvent",
  envelope(
    "document.deleted",
    z.object(documentFacts),
    "The document was deleted within its deletion window; its QR link no longer opens it.",
  ),
);

const documentAccessedEvent = component(
  "DocumentAccessedEvent",
  envelope(
    "document.accessed",
    z.object({
      ...documentFacts,
      accessed_at: timestamp,
      first: z.boolean().meta({
        description:
          "The document's first access: from then on it can no longer be deleted. It is always sent; a later access is sent only a minute or more after the last one sent for the document, so accesses in between send nothing.",
      }),
      via: z.enum(ACCESSED_VIA).meta({
        description:
          "How it was accessed: `qr`, its QR link opened its PDF; `efti_gate`, an authority's eFTI gate read its data (docs/efti.md, Gates).",
      }),
    }),
    "The document was accessed: its QR link opened its PDF (an inspector's scan, or anyone holding the link), or an authority's eFTI gate read its data.",
  ),
);

const documentEftiFollowUpEvent = component(
  "DocumentEftiFollowUpEvent",
  envelope(
    "document.efti_follow_up",
    z.object({
      ...documentFacts,
      dataset_id: z.uuid().meta({
        description:
          "The consignment's eFTI dataset id, as `GET /api/v1/documents/{uuid}/efti` lists it.",
      }),
      shipment: z.int().min(1).meta({
        description: "The consignment's shipment (1 for the first).",
      }),
      message: z.string().meta({
        description:
          "The gate's follow-up message about the consignment, as it sent it (UTF-8 text).",
      }),
    }),
    "An authority's eFTI gate posted a follow-up message about one of the document's consignments (docs/efti.md). A gate's retry of the same message is one event.",
  ),
);

const pingEvent = component(
  "PingEvent",
  envelope(
    "ping",
    z.object({ webhook_endpoint_id: z.string() }),
    "A test, sent to one endpoint when its owner asks for it.",
  ),
);

/** The schema of each type of event, in the order of EVENT_TYPES. */
export const EVENT_SCHEMAS = [
  documentIssuedEvent,
  documentRectifiedEvent,
  documentDeletedEvent,
  documentAccessedEvent,
  documentEftiFollowUpEvent,
  pingEvent,
] as const;

/** Any event, told apart by `type`. */
export const eventSchema = component(
  "Event",
  z.discriminatedUnion("type", EVENT_SCHEMAS),
);

export type Event = z.infer<typeof eventSchema>;
