import {
  type DocumentData,
  type Shipment,
  shipmentsOf,
} from "../schemas/document-request";

// Until the printed fields list shipments: the first one's.
const first = (data: DocumentData) => shipmentsOf(data)[0] as Shipment;

/**
 * Each data field a document prints, in printed order, with the parts of the
 * normalized data it shows: a tax id with its country, an address whole. The
 * reference is left out: it names the version (a correction needs its own),
 * it is not data of the transport; metadata is never printed.
 */
const PRINTED_FIELDS = {
  transport_date: (data) => [data.transport_date],
  "shipper.name": (data) => [data.shipper.name],
  "shipper.tax_id": ({ shipper }) => [shipper.tax_id, shipper.tax_country],
  "shipper.address": ({ shipper }) => addressParts(shipper.address),
  "carrier.name": (data) => [data.carrier.name],
  "carrier.tax_id": ({ carrier }) => [carrier.tax_id, carrier.tax_country],
  "carrier.address": ({ carrier }) =>
    carrier.address ? addressParts(carrier.address) : [null],
  "origin.place": (data) => [first(data).origin.place],
  "origin.address": (data) => addressParts(first(data).origin),
  "destination.place": (data) => [first(data).destination.place],
  "destination.address": (data) => addressParts(first(data).destination),
  "goods.description": (data) => [first(data).goods.description],
  "goods.weight_kg": (data) => [first(data).goods.weight_kg],
  "goods.alternative_measure": (data) => [
    first(data).goods.alternative_measure?.value ?? null,
    first(data).goods.alternative_measure?.unit ?? null,
  ],
  "vehicle.registration": ({ vehicle }) => [
    vehicle.registration,
    vehicle.country,
  ],
  "vehicle.trailer_registration": ({ vehicle }) => [
    vehicle.trailer_registration,
    vehicle.trailer_country,
  ],
  "special_authorization.number": (data) => [
    data.special_authorization?.number ?? null,
  ],
  "special_authorization.issuer": (data) => [
    data.special_authorization?.issuer ?? null,
  ],
  observations: (data) => [data.observations],
} satisfies Record<string, (data: DocumentData) => (string | null)[]>;

/** A printed data field, named by its place in the data. */
export type PrintedField = keyof typeof PRINTED_FIELDS;

const FIELDS = Object.keys(PRINTED_FIELDS) as PrintedField[];

/** The registrations: a change of either is a change of vehicle (Orden FOM/2861/2012 art. 6 g). */
const VEHICLE_FIELDS: readonly PrintedField[] = [
  "vehicle.registration",
  "vehicle.trailer_registration",
];

function addressParts(address: {
  street: string | null;
  postal_code: string | null;
  city: string;
  country: string;
}): (string | null)[] {
  return [address.street, address.postal_code, address.city, address.country];
}

/**
 * The printed fields whose normalized values differ between a version and
 * its correction, in printed order. Both are normalized data, so a plate
 * written with other spaces or case is no change.
 */
export function changedFields(
  before: DocumentData,
  after: DocumentData,
): PrintedField[] {
  return FIELDS.filter((field) => {
    const parts = PRINTED_FIELDS[field];
    return JSON.stringify(parts(before)) !== JSON.stringify(parts(after));
  });
}

/** Whether the changes include a change of vehicle. */
export const changesVehicle = (fields: readonly PrintedField[]): boolean =>
  fields.some((field) => VEHICLE_FIELDS.includes(field));
