// The eFTI namespaces and the code values the export writes, each once. The
// code lists are the vendored XSD's (vendor/efti/xsd/codes/); the tests
// validate every export against them.
import type { TrailerKind } from "../../schemas/vehicle";

/**
 * The prefix of each EU member state's VAT numbers (VIES), by its ISO
 * country code: the code itself, but Greece's EL.
 */
export const EU_VAT_PREFIXES: Readonly<Record<string, string>> = {
  AT: "AT",
  BE: "BE",
  BG: "BG",
  CY: "CY",
  CZ: "CZ",
  DE: "DE",
  DK: "DK",
  EE: "EE",
  ES: "ES",
  FI: "FI",
  FR: "FR",
  GR: "EL",
  HR: "HR",
  HU: "HU",
  IE: "IE",
  IT: "IT",
  LT: "LT",
  LU: "LU",
  LV: "LV",
  MT: "MT",
  NL: "NL",
  PL: "PL",
  PT: "PT",
  RO: "RO",
  SE: "SE",
  SI: "SI",
  SK: "SK",
};

/** The common data set (consignment-common.xsd, v0.8). */
export const COMMON_NAMESPACE = "http://efti.eu/v1/consignment/common";
/** The identifier subset (consignment-identifier.xsd). */
export const IDENTIFIER_NAMESPACE = "http://efti.eu/v1/consignment/identifier";

/** UN/EDIFACT 2379: CCYYMMDD, the transport date (a day, no time). */
export const DATE_FORMAT = "102";
/** UNECE Recommendation 19: road transport. */
export const ROAD_TRANSPORT_MODE = "3";
/**
 * UNECE Recommendation 28 / UN/EDIFACT 8179: truck, "an automotive vehicle
 * for hauling goods". The document does not tell a rigid lorry from a
 * tractor, so the general road goods vehicle.
 */
export const TRUCK_MEANS_TYPE = "31";
/**
 * UN/EDIFACT 8053 (D23A), by the trailer's kind: `TE`, trailer ("a vehicle
 * without motive power ... towed by a motor vehicle", which a semi-trailer
 * is too: also for a trailer of no stated kind), or `SM`, semi-trailer.
 */
export const TRAILER_EQUIPMENT_CATEGORIES = {
  trailer: "TE",
  semi_trailer: "SM",
} as const satisfies Record<TrailerKind, string>;
/** UNECE Recommendation 20: kilogram. */
export const KILOGRAM_UNIT = "KGM";

/** types:MeasureValue (types/measurement.xsd): a decimal of at most 16 digits, 6 of them decimals. */
export const MEASURE_TOTAL_DIGITS = 16;
