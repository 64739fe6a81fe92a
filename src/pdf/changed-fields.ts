import {
  type DocumentField,
  PART_FIELDS,
  type PrintedData,
  type PrintedShipment,
  partsInOrder,
  SHIPMENT_KEYS,
  type ShipmentField,
  VEHICLE_CHANGES,
} from "./printed-fields";

/** A changed field's printed texts in the version rectified and in the correction (null: not given). */
interface PrintedTexts {
  before: string | null;
  after: string | null;
}

/**
 * The printed texts of a field that changed, or the compared ones where the
 * printed texts are the same (a weight changed beyond its printed decimals).
 */
const textsOf = (
  printed: PrintedTexts,
  compared: PrintedTexts,
): PrintedTexts => (printed.before === printed.after ? compared : printed);

/**
 * One thing a correction changed on the page. Shipments are numbered as
 * printed, from 1 (`shipment` is null when neither version is grouped); the
 * n-th shipment of one version is compared with the n-th of the other,
 * since the order listed is the order printed (it implies no order of
 * execution), and a number then means the same row on both documents.
 */
export type Change =
  | ({ kind: "field"; field: DocumentField } & PrintedTexts)
  | ({
      kind: "shipment field";
      shipment: number | null;
      field: ShipmentField;
    } & PrintedTexts)
  | { kind: "shipment added" | "shipment removed"; shipment: number }
  | { kind: "became grouped" | "became single" };

function shipmentChanges(before: PrintedData, after: PrintedData): Change[] {
  const numbered = before.grouped || after.grouped;
  const changes: Change[] =
    before.grouped === after.grouped
      ? []
      : [{ kind: after.grouped ? "became grouped" : "became single" }];
  const count = Math.max(before.shipments.length, after.shipments.length);
  for (let index = 0; index < count; index++) {
    const shipment = index + 1;
    const old = shipmentAt(before, index);
    const now = shipmentAt(after, index);
    if (!old) changes.push({ kind: "shipment added", shipment });
    else if (!now) changes.push({ kind: "shipment removed", shipment });
    else changes.push(...fieldsOf(old, now, numbered ? shipment : null));
  }
  return changes;
}

/** A shipment as printed and as compared. */
interface ShipmentTexts {
  printed: PrintedShipment;
  compared: PrintedShipment;
}

const shipmentAt = (data: PrintedData, index: number): ShipmentTexts | null => {
  const printed = data.shipments[index];
  const compared = data.compared.shipments[index];
  return printed && compared ? { printed, compared } : null;
};

const fieldsOf = (
  before: ShipmentTexts,
  after: ShipmentTexts,
  shipment: number | null,
): Change[] =>
  SHIPMENT_KEYS.filter(
    (field) => before.compared[field] !== after.compared[field],
  ).map((field) => ({
    kind: "shipment field",
    shipment,
    field,
    ...textsOf(
      { before: before.printed[field], after: after.printed[field] },
      { before: before.compared[field], after: after.compared[field] },
    ),
  }));

/**
 * The printed fields whose normalized values differ between a version and
 * its correction, in the correction's printed order: a plate written with
 * other spaces or case is no change.
 */
export const changedFields = (
  before: PrintedData,
  after: PrintedData,
): Change[] =>
  partsInOrder(after.grouped).flatMap((part): Change[] =>
    part === "shipments"
      ? shipmentChanges(before, after)
      : PART_FIELDS[part]
          .filter(
            (field) =>
              before.compared.fields[field] !== after.compared.fields[field],
          )
          .map((field) => ({
            kind: "field",
            field,
            ...textsOf(
              { before: before.fields[field], after: after.fields[field] },
              {
                before: before.compared.fields[field],
                after: after.compared.fields[field],
              },
            ),
          })),
  );

/** Whether a change is a change of vehicle. */
export const isVehicleChange = (change: Change): boolean =>
  change.kind === "field" && VEHICLE_CHANGES.includes(change.field);
