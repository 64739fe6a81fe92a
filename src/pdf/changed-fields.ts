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

/**
 * One thing a correction changed on the page. Shipments are numbered as
 * printed, from 1 (`shipment` is null when neither version is grouped); the
 * n-th shipment of one version is compared with the n-th of the other,
 * since the order listed is the order printed (it implies no order of
 * execution), and a number then means the same row on both documents.
 */
export type Change =
  | { kind: "field"; field: DocumentField }
  | { kind: "shipment field"; shipment: number | null; field: ShipmentField }
  | { kind: "shipment added" | "shipment removed"; shipment: number }
  | { kind: "became grouped" | "became single" };

function shipmentChanges(before: PrintedData, after: PrintedData): Change[] {
  const numbered = before.grouped || after.grouped;
  const changes: Change[] =
    before.grouped === after.grouped
      ? []
      : [{ kind: after.grouped ? "became grouped" : "became single" }];
  const { shipments: olds } = before.compared;
  const { shipments: nows } = after.compared;
  for (let index = 0; index < Math.max(olds.length, nows.length); index++) {
    const shipment = index + 1;
    const old = olds[index];
    const now = nows[index];
    if (!old) changes.push({ kind: "shipment added", shipment });
    else if (!now) changes.push({ kind: "shipment removed", shipment });
    else changes.push(...fieldsOf(old, now, numbered ? shipment : null));
  }
  return changes;
}

const fieldsOf = (
  before: PrintedShipment,
  after: PrintedShipment,
  shipment: number | null,
): Change[] =>
  SHIPMENT_KEYS.filter((field) => before[field] !== after[field]).map(
    (field) => ({ kind: "shipment field", shipment, field }),
  );

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
          .map((field) => ({ kind: "field", field })),
  );

/** Whether the changes include a change of vehicle. */
export const changesVehicle = (changes: readonly Change[]): boolean =>
  changes.some(
    (change) =>
      change.kind === "field" && VEHICLE_CHANGES.includes(change.field),
  );
