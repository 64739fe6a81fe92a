import type { PrintedField } from "./changed-fields";
import type { MessageKey, Messages } from "./i18n";

/**
 * The labels a field prints under: its section's where the label alone
 * ("Name", "Place") does not say whose it is.
 */
const FIELD_LABELS: Readonly<Record<PrintedField, readonly MessageKey[]>> = {
  transport_date: ["transportDate"],
  "shipper.name": ["shipper", "name"],
  "shipper.tax_id": ["shipper", "taxId"],
  "shipper.address": ["shipper", "registeredAddress"],
  "carrier.name": ["carrier", "name"],
  "carrier.tax_id": ["carrier", "taxId"],
  "carrier.address": ["carrier", "registeredAddress"],
  "origin.place": ["origin", "place"],
  "origin.address": ["origin", "address"],
  "destination.place": ["destination", "place"],
  "destination.address": ["destination", "address"],
  "goods.description": ["description"],
  "goods.weight_kg": ["weight"],
  "goods.alternative_measure": ["alternativeMeasure"],
  "vehicle.registration": ["vehicleRegistration"],
  "vehicle.trailer_registration": ["trailerRegistration"],
  "special_authorization.number": [
    "specialAuthorization",
    "authorizationNumber",
  ],
  "special_authorization.issuer": [
    "specialAuthorization",
    "authorizationIssuer",
  ],
  observations: ["observations"],
};

/** A field's name in one language: `Contractual shipper — Name or company name`. */
const fieldName = (messages: Messages, field: PrintedField): string =>
  FIELD_LABELS[field].map((key) => messages[key]).join(" — ");

/** The list of changes in one language: `Changes: Vehicle registration; Weight`. */
export const changeList = (
  messages: Messages,
  fields: readonly PrintedField[],
): string =>
  `${messages.changes}: ${fields.map((field) => fieldName(messages, field)).join("; ")}`;
