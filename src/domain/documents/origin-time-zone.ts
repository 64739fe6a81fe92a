import { wallTimeIn } from "../../clock";
import {
  type DocumentData,
  type Shipment,
  shipmentsOf,
} from "../../schemas/document-request";
import type { TransportLocation } from "../../schemas/transport-location";

/** The two time zones of Spain where a domestic transport can start. */
export type SpanishTimeZone = "Europe/Madrid" | "Atlantic/Canary";

/**
 * The time zone of the place of loading, in which the document prints its
 * time of issue (docs/api.md, The PDF): the Canary Islands are the provinces with
 * postal codes 35 (Las Palmas) and 38 (Santa Cruz de Tenerife). Without a
 * postal code, the mainland's.
 */
export function originTimeZone(
  origin: Pick<TransportLocation, "postal_code">,
): SpanishTimeZone {
  const province = origin.postal_code?.slice(0, 2);
  return province === "35" || province === "38"
    ? "Atlantic/Canary"
    : "Europe/Madrid";
}

/** A document's time zone: its first shipment's origin's, for a grouped document. */
export const documentTimeZone = (data: DocumentData): SpanishTimeZone =>
  originTimeZone((shipmentsOf(data)[0] as Shipment).origin);

/** The date `YYYY-MM-DD` the clocks of `timeZone` showed at `epochMilliseconds`. */
export function dateIn(
  timeZone: SpanishTimeZone,
  epochMilliseconds: number,
): string {
  const { year, month, day } = wallTimeIn(timeZone, epochMilliseconds);
  return `${year}-${month}-${day}`;
}
