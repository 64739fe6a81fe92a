import type { Change } from "./changed-fields";
import { printable } from "./fonts";
import { beside, type DocumentWording, type Messages } from "./i18n";
import {
  DOCUMENT_FIELDS,
  NOT_GIVEN,
  SHIPMENT_FIELDS,
  type ShipmentField,
} from "./printed-fields";

/** A field's name in one language: `Contractual shipper — Name or company name`. */
const fieldName = (
  messages: Messages,
  { section, label }: { section?: keyof Messages; label: keyof Messages },
): string =>
  section ? `${messages[section]} — ${messages[label]}` : messages[label];

/** A grouped document's shipment field in one language: `Shipment 3: Weight`. */
const numberedName = (
  messages: Messages,
  shipment: number,
  field: ShipmentField,
): string =>
  `${messages.shipment} ${shipment}: ${fieldName(messages, SHIPMENT_FIELDS[field])}`;

/** A shipment field of a grouped document, named as every label is. */
export const shipmentFieldName = (
  { own, spanish }: DocumentWording,
  shipment: number,
  field: ShipmentField,
): string =>
  beside(
    numberedName(own, shipment, field),
    spanish && numberedName(spanish, shipment, field),
  );

/** One change in one language: `Vehicle registration`, `Shipment 3: Weight`. */
function changeName(messages: Messages, change: Change): string {
  switch (change.kind) {
    case "field":
      return fieldName(messages, DOCUMENT_FIELDS[change.field]);
    case "shipment field":
      return change.shipment === null
        ? fieldName(messages, SHIPMENT_FIELDS[change.field])
        : numberedName(messages, change.shipment, change.field);
    case "shipment added":
      return `${messages.shipment} ${change.shipment}: ${messages.shipmentAdded}`;
    case "shipment removed":
      return `${messages.shipment} ${change.shipment}: ${messages.shipmentRemoved}`;
    case "became grouped":
      return messages.becameGrouped;
    case "became single":
      return messages.becameSingle;
  }
}

/** The printed field a change is to, or null when it is to the shipments. */
function fieldOf(
  change: Change,
): { label: keyof Messages; long?: true } | null {
  if (change.kind === "field") return DOCUMENT_FIELDS[change.field];
  if (change.kind === "shipment field") return SHIPMENT_FIELDS[change.field];
  return null;
}

/** Between an old text and the new one, an origin and its destination. */
export const TOWARDS = " → ";

/** A field's old and new printed texts, `1.200 kg → 1.500 kg`; null for a long text, whose label says enough. */
function changedTexts(change: Change): string | null {
  if (!("before" in change) || fieldOf(change)?.long) return null;
  const shown = (text: string | null) => printable(text ?? NOT_GIVEN);
  return `${shown(change.before)}${TOWARDS}${shown(change.after)}`;
}

/**
 * One item of a correction's list: the change named as every label is (the
 * document's language, then the Spanish), then the texts once:
 * `Shipment 3: Weight / Envío 3: Peso: 1.200 kg → 1.500 kg`.
 */
export function changeItem(
  { own, spanish }: DocumentWording,
  change: Change,
): string {
  const name = beside(
    changeName(own, change),
    spanish && changeName(spanish, change),
  );
  const texts = changedTexts(change);
  return texts === null ? name : `${name}: ${texts}`;
}
