import * as z from "zod";
import { calendarDate } from "./calendar-date";
import { component, documentedAs } from "./component";
import { goodsSchema } from "./goods";
import { contractIssue } from "./issues";
import { metadataSchema } from "./metadata";
import { carrierSchema, shipperSchema } from "./party";
import { referenceSchema } from "./reference";
import { specialAuthorizationSchema } from "./special-authorization";
import { optional, text } from "./text";
import { transportLocationSchema } from "./transport-location";
import { REQUIRED_MESSAGE } from "./validation-errors";
import { vehicleSchema } from "./vehicle";

/**
 * What each shipment has of its own (Orden FOM/2861/2012 art. 6 c–d): where
 * it is loaded and unloaded, and its goods. Everything else is the
 * document's, once, whether it carries one shipment or several.
 */
const shipmentFields = {
  origin: transportLocationSchema,
  destination: transportLocationSchema,
  goods: goodsSchema,
};

/** How many shipments a grouped document lists (docs/api.md, Grouped shipments). */
export const GROUPED_SHIPMENTS = { min: 2, max: 100 } as const;

const shipmentSchema = component(
  "Shipment",
  z.strictObject(shipmentFields).meta({
    description:
      "One shipment of a grouped document: its own origin, destination and goods, with the rules of a single document's.",
  }),
);

const shipmentsSchema = z
  .array(shipmentSchema)
  .min(GROUPED_SHIPMENTS.min)
  .max(GROUPED_SHIPMENTS.max);

const transportDate = calendarDate.meta({
  description:
    "Date of the transport, a real calendar date (422 INVALID_DATE otherwise).",
});

/** The document's own fields before and after the shipment's, in printed order. */
const leadingFields = {
  transport_date: transportDate,
  shipper: shipperSchema,
  carrier: carrierSchema,
};
const trailingFields = {
  vehicle: vehicleSchema,
  reference: optional(referenceSchema),
  special_authorization: optional(specialAuthorizationSchema),
  observations: optional(text(0, 4000)),
};

/** A body with one shipment: the shape of every document before grouping. */
const singleShipmentRequestSchema = component(
  "SingleShipmentRequest",
  z
    .strictObject({
      ...leadingFields,
      ...shipmentFields,
      ...trailingFields,
      metadata: optional(metadataSchema),
    })
    .meta({ title: "One shipment" }),
);

/** A grouped body (Resolución of 5 June 2026, Sexto.1): same shipper and carrier. */
const groupedShipmentsRequestSchema = component(
  "GroupedShipmentsRequest",
  z
    .strictObject({
      ...leadingFields,
      shipments: shipmentsSchema,
      ...trailingFields,
      metadata: optional(metadataSchema),
    })
    .meta({ title: "Grouped shipments" }),
);

/** The normalized data of a document that carries one shipment. */
export const singleShipmentDataSchema = component(
  "SingleShipmentData",
  singleShipmentRequestSchema.omit({ metadata: true }),
);

/** The normalized data of a grouped document. */
export const groupedShipmentsDataSchema = component(
  "GroupedShipmentsData",
  groupedShipmentsRequestSchema.omit({ metadata: true }),
);

type SingleShipmentData = z.output<typeof singleShipmentDataSchema>;
type GroupedShipmentsData = z.output<typeof groupedShipmentsDataSchema>;
export type Shipment = z.output<typeof shipmentSchema>;

/** The normalized transport data of a document: everything but metadata. */
export type DocumentData = SingleShipmentData | GroupedShipmentsData;

export type Metadata = z.output<typeof metadataSchema> | null;

export type DocumentRequest = DocumentData & { metadata: Metadata };

const SHIPMENT_KEYS = Object.keys(shipmentFields) as (keyof Shipment)[];

const BODY_KEYS = [
  ...Object.keys(leadingFields),
  ...SHIPMENT_KEYS,
  "shipments",
  ...Object.keys(trailingFields),
  "metadata",
];

const isGiven = (value: unknown): boolean =>
  value !== undefined && value !== null;

/**
 * A body carries either `shipments` or `origin`, `destination` and `goods`,
 * judged on what was sent, whatever else is wrong with it: both is one
 * error on `shipments`; neither, the single shape's REQUIRED errors.
 */
const oneShape = z.superRefine<Record<string, unknown>>(
  (body, ctx) => {
    const sent = SHIPMENT_KEYS.filter((key) => body[key] !== undefined);
    if (isGiven(body.shipments)) {
      if (sent.length > 0) {
        ctx.addIssue(
          contractIssue(
            "EXACTLY_ONE_REQUIRED",
            "Send either `shipments` or `origin`, `destination` and `goods`, not both.",
            body.shipments,
            ["shipments"],
          ),
        );
      }
      return;
    }
    for (const key of SHIPMENT_KEYS.filter((key) => !sent.includes(key))) {
      ctx.addIssue(
        contractIssue("REQUIRED", REQUIRED_MESSAGE, undefined, [key]),
      );
    }
    // Errors in the order of the body's fields, wherever they were found.
    // Unknown top-level fields (an issue without a path) come last.
    const position = (issue: { path?: PropertyKey[] }) => {
      const index = BODY_KEYS.indexOf(String(issue.path?.[0]));
      return index === -1 ? BODY_KEYS.length : index;
    };
    ctx.issues.sort((a, b) => position(a) - position(b));
  },
  {
    when: (payload) =>
      typeof payload.value === "object" && payload.value !== null,
  },
);

/**
 * The body of create and correct (docs/api.md, Document body). Parsing it
 * also normalizes it: the output is the `data` of the result plus
 * `metadata`. An optional field is stored and hashed (request-hash.ts)
 * with every document, so one that a body may leave out without meaning
 * null, as `shipments`, is absent from the output when not sent, never
 * null: the bodies that do not use it keep their stored form and hash, and
 * their retries still match (test/http/documents/stored-single-shipment.test.ts).
 * Any field added to the body follows the same rule.
 */
export const documentRequestSchema = component(
  "DocumentRequest",
  z
    .strictObject({
      ...leadingFields,
      origin: shipmentFields.origin.optional(),
      destination: shipmentFields.destination.optional(),
      goods: shipmentFields.goods.optional(),
      shipments: shipmentsSchema.nullish(),
      ...trailingFields,
      metadata: optional(metadataSchema),
    })
    .check(oneShape)
    // A grouped body keeps its fields in printed order; a single one loses the key.
    .transform((body) => {
      if (body.shipments) return body as DocumentRequest;
      const { shipments, ...single } = body;
      return single as DocumentRequest;
    })
    .meta({
      description: `One shipment (\`origin\`, \`destination\`, \`goods\`) or a grouped document (\`shipments\`, ${GROUPED_SHIPMENTS.min} to ${GROUPED_SHIPMENTS.max} with the same shipper and carrier), never both (422 EXACTLY_ONE_REQUIRED on \`shipments\`; \`shipments: null\` counts as not sent).`,
      ...documentedAs(
        singleShipmentRequestSchema,
        groupedShipmentsRequestSchema,
      ),
    }),
);

/** The shipments of a document: its one, or each of a grouped document's. */
export const shipmentsOf = (data: DocumentData): readonly Shipment[] =>
  "shipments" in data
    ? data.shipments
    : [
        {
          origin: data.origin,
          destination: data.destination,
          goods: data.goods,
        },
      ];

/** Splits a parsed request into the document's data and its metadata. */
export function splitRequest(request: DocumentRequest): {
  data: DocumentData;
  metadata: Metadata;
} {
  const { metadata, ...data } = request;
  return { data: data as DocumentData, metadata };
}
