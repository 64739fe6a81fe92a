import type { TransportLocation } from "../schemas/transport-location";

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
