import { toIsoTime } from "../../clock";
import type { EventRow } from "../../db/schema";
import type { Event } from "../../schemas/event";

/** The document facts of a document's event row. */
function documentFacts(row: EventRow) {
  return {
    uuid: row.documentUuid as string,
    reference: row.reference,
    rectifies_uuid: row.rectifiesUuid,
    created_at: toIsoTime(row.documentCreatedAt as number),
    transport_date: row.transportDate as string,
  };
}

/** An event as the API lists it and a delivery posts it, from its row. */
export function eventPayload(row: EventRow): Event {
  const head = {
    id: row.id,
    created_at: toIsoTime(row.createdAt),
    // Events exist for real keys only (never demo tokens).
    environment: row.environment as Event["environment"],
  };
  switch (row.type) {
    case "ping":
      return {
        ...head,
        type: row.type,
        data: { webhook_endpoint_id: row.endpointId as string },
      };
    case "document.accessed":
      return {
        ...head,
        type: row.type,
        data: {
          ...documentFacts(row),
          accessed_at: head.created_at,
          first: row.firstAccess === true,
          via: row.accessedVia ?? "qr",
        },
      };
    case "document.efti_follow_up":
      return {
        ...head,
        type: row.type,
        data: {
          ...documentFacts(row),
          dataset_id: row.datasetId as string,
          shipment: row.shipment as number,
          message: row.message as string,
        },
      };
    default:
      return { ...head, type: row.type, data: documentFacts(row) };
  }
}
