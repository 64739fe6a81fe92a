import * as z from "zod";
import { calendarDate } from "./calendar-date";
import { component } from "./component";
import { goodsSchema } from "./goods";
import { metadataSchema } from "./metadata";
import { carrierSchema, shipperSchema } from "./party";
import { referenceSchema } from "./reference";
import { specialAuthorizationSchema } from "./special-authorization";
import { optional, text } from "./text";
import { transportLocationSchema } from "./transport-location";
import { vehicleSchema } from "./vehicle";

/**
 * The body of create and correct (docs/api.md, Document body). Parsing it also normalizes it:
 * the output is the `data` of the result plus `metadata`.
 */
export const documentRequestSchema = component(
  "DocumentRequest",
  z.strictObject({
    transport_date: calendarDate.meta({
      description:
        "Date of the transport, a real calendar date (422 INVALID_DATE otherwise).",
    }),
    shipper: shipperSchema,
    carrier: carrierSchema,
    origin: transportLocationSchema,
    destination: transportLocationSchema,
    goods: goodsSchema,
    vehicle: vehicleSchema,
    reference: optional(referenceSchema),
    special_authorization: optional(specialAuthorizationSchema),
    observations: optional(text(0, 4000)),
    metadata: optional(metadataSchema),
  }),
);

export type DocumentRequest = z.output<typeof documentRequestSchema>;

/** The normalized transport data of a document: everything but metadata. */
export type DocumentData = Omit<DocumentRequest, "metadata">;

export type Metadata = DocumentRequest["metadata"];

/** Splits a parsed request into the document's data and its metadata. */
export function splitRequest(request: DocumentRequest): {
  data: DocumentData;
  metadata: Metadata;
} {
  const { metadata, ...data } = request;
  return { data, metadata };
}
