import type { Change } from "./changed-fields";
import type { Messages } from "./i18n";
import { DOCUMENT_FIELDS, SHIPMENT_FIELDS } from "./printed-fields";

/** A field's name in one language: `Contractual shipper — Name or company name`. */
const fieldName = (
  messages: Messages,
  { section, label }: { section?: keyof Messages; label: keyof Messages },
): string =>
  section ? `${messages[section]} — ${messages[label]}` : messages[label];

/** One change in one language: `Vehicle registration`, `Shipment 3: Weight`. */
function changeName(messages: Messages, change: Change): string {
  switch (change.kind) {
    case "field":
      return fieldName(messages, DOCUMENT_FIELDS[change.field]);
    case "shipment field": {
      const name = fieldName(messages, SHIPMENT_FIELDS[change.field]);
      return change.shipment === null
        ? name
        : `${messages.shipment} ${change.shipment}: ${name}`;
    }
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

/** The list of changes in one language: `Changes: Vehicle registration; Shipment 3: Weight`. */
export const changeList = (
  messages: Messages,
  changes: readonly Change[],
): string =>
  `${messages.changes}: ${changes.map((change) => changeName(messages, change)).join("; ")}`;
