import {
  type DocumentData,
  type Shipment,
  shipmentsOf,
} from "../schemas/document-request";
import { formatDate, formatMeasure, formatWeight } from "./format";
import type { MessageKey } from "./i18n";

/** Printed for an optional item that was not given. */
export const NOT_GIVEN = "—";

/**
 * A data field as the PDF prints it: the label printed above its value, the
 * section it belongs to where the label alone ("Name", "Place") does not
 * say whose it is, and its printed text (null when not given). A correction
 * compares the printed text of normalized data, or `compare` where the
 * text rounds the value, and prints both texts of a changed field (both
 * compared texts where the printed ones are the same), but only its label
 * for a `long` one (a description, observations, an address).
 */
interface PrintedField<Source> {
  label: MessageKey;
  section?: MessageKey;
  print: (source: Source) => string | null;
  compare?: (source: Source) => string | null;
  long?: true;
}

/** An address or a transport location; a location may lack street and postal code. */
interface PostalAddress {
  street: string | null;
  postal_code: string | null;
  city: string;
  country: string;
}

/** Street, then postal code and city, then country, one per line. */
const addressLines = (address: PostalAddress): string =>
  [
    address.street,
    [address.postal_code, address.city].filter(Boolean).join(" "),
    address.country,
  ]
    .filter(Boolean)
    .join("\n");

/** An address on as few lines as its column allows: its lines joined by commas. */
export const runOn = (address: string): string =>
  address.replaceAll("\n", ", ");

const withCountry = (identifier: string, country: string): string =>
  `${identifier} (${country})`;

// The tables below are the only way data reaches the page: the content is
// built from `printedData`, never from the data itself, and a correction
// compares the same printed texts (changed-fields.ts), so a field cannot
// print without being compared.

/** The transport date and the parties, in printed order. */
const PARTIES_FIELDS = {
  transport_date: {
    label: "transportDate",
    print: (d) => formatDate(d.transport_date),
  },
  "shipper.name": {
    section: "shipper",
    label: "name",
    print: (d) => d.shipper.name,
  },
  "shipper.tax_id": {
    section: "shipper",
    label: "taxId",
    print: ({ shipper }) => withCountry(shipper.tax_id, shipper.tax_country),
  },
  "shipper.address": {
    section: "shipper",
    label: "registeredAddress",
    print: (d) => addressLines(d.shipper.address),
    long: true,
  },
  "carrier.name": {
    section: "carrier",
    label: "name",
    print: (d) => d.carrier.name,
  },
  "carrier.tax_id": {
    section: "carrier",
    label: "taxId",
    print: ({ carrier }) => withCountry(carrier.tax_id, carrier.tax_country),
  },
  "carrier.address": {
    section: "carrier",
    label: "registeredAddress",
    print: (d) => d.carrier.address && addressLines(d.carrier.address),
    long: true,
  },
} satisfies Record<string, PrintedField<DocumentData>>;

/** Each shipment's fields (Orden FOM/2861/2012 art. 6 c–d), in printed order. */
export const SHIPMENT_FIELDS = {
  "origin.place": {
    section: "origin",
    label: "place",
    print: (s) => s.origin.place,
  },
  "origin.address": {
    section: "origin",
    label: "address",
    print: (s) => addressLines(s.origin),
    long: true,
  },
  "destination.place": {
    section: "destination",
    label: "place",
    print: (s) => s.destination.place,
  },
  "destination.address": {
    section: "destination",
    label: "address",
    print: (s) => addressLines(s.destination),
    long: true,
  },
  "goods.description": {
    label: "description",
    print: (s) => s.goods.description,
    long: true,
  },
  "goods.weight_kg": {
    label: "weight",
    print: ({ goods }) => goods.weight_kg && formatWeight(goods.weight_kg),
    // Printed to 3 decimals: a change in the 4th is a change all the same,
    // which a correction shows with every decimal the API accepts.
    compare: ({ goods }) =>
      goods.weight_kg && formatMeasure(goods.weight_kg, "kg"),
  },
  "goods.alternative_measure": {
    label: "alternativeMeasure",
    print: ({ goods }) =>
      goods.alternative_measure &&
      formatMeasure(
        goods.alternative_measure.value,
        goods.alternative_measure.unit,
      ),
  },
} satisfies Record<string, PrintedField<Shipment>>;

/** The vehicle and the special authorization, in printed order. */
const VEHICLE_FIELDS = {
  "vehicle.registration": {
    label: "vehicleRegistration",
    print: ({ vehicle }) => withCountry(vehicle.registration, vehicle.country),
  },
  "vehicle.trailer_registration": {
    label: "trailerRegistration",
    print: ({ vehicle }) =>
      vehicle.trailer_registration &&
      vehicle.trailer_country &&
      withCountry(vehicle.trailer_registration, vehicle.trailer_country),
  },
  "special_authorization.number": {
    section: "specialAuthorization",
    label: "authorizationNumber",
    print: (d) => d.special_authorization?.number ?? null,
  },
  "special_authorization.issuer": {
    section: "specialAuthorization",
    label: "authorizationIssuer",
    print: (d) => d.special_authorization?.issuer ?? null,
  },
} satisfies Record<string, PrintedField<DocumentData>>;

const OBSERVATIONS_FIELDS = {
  observations: {
    label: "observations",
    print: (d) => d.observations,
    long: true,
  },
} satisfies Record<string, PrintedField<DocumentData>>;

export const DOCUMENT_FIELDS = {
  ...PARTIES_FIELDS,
  ...VEHICLE_FIELDS,
  ...OBSERVATIONS_FIELDS,
};

export type DocumentField = keyof typeof DOCUMENT_FIELDS;
export type ShipmentField = keyof typeof SHIPMENT_FIELDS;

const keys = <Key extends string>(table: Record<Key, unknown>) =>
  Object.keys(table) as Key[];

/** The document's fields of each part of the page, in printed order. */
export const PART_FIELDS: Readonly<
  Record<"parties" | "vehicle" | "observations", readonly DocumentField[]>
> = {
  parties: keys(PARTIES_FIELDS),
  vehicle: keys(VEHICLE_FIELDS),
  observations: keys(OBSERVATIONS_FIELDS),
};

export const SHIPMENT_KEYS = keys(SHIPMENT_FIELDS);

/** A part of the page: a group of the document's fields, or the shipments. */
export type Part = keyof typeof PART_FIELDS | "shipments";

/**
 * The order of the parts, as a correction lists their changes: a grouped
 * document's vehicle before its shipments, which may be many.
 */
export const partsInOrder = (grouped: boolean): readonly Part[] =>
  grouped
    ? ["parties", "vehicle", "shipments", "observations"]
    : ["parties", "shipments", "vehicle", "observations"];

/** The registrations: a change of either is a change of vehicle (Orden FOM/2861/2012 art. 6 g). */
export const VEHICLE_CHANGES: readonly DocumentField[] = [
  "vehicle.registration",
  "vehicle.trailer_registration",
];

export type PrintedShipment = Readonly<Record<ShipmentField, string | null>>;

/**
 * What a document prints of its data, field by field. The reference is not
 * among the fields: it names the version (a correction needs its own) and
 * is not data of the transport, so the identification prints it apart and
 * no correction lists it; metadata is never printed.
 */
export interface PrintedData {
  fields: Readonly<Record<DocumentField, string | null>>;
  shipments: readonly PrintedShipment[];
  /** The same fields as a correction compares them. */
  compared: {
    fields: Readonly<Record<DocumentField, string | null>>;
    shipments: readonly PrintedShipment[];
  };
  /** Whether the data is a grouped document's, printed as a table of shipments. */
  grouped: boolean;
  /**
   * The sum of the shipments' weights when each gives one, else null. Not a
   * field: it changes only with a weight, which a correction lists.
   */
  totalWeight: string | null;
}

/** Each field of `table` printed, or as compared. */
const printAll = <Source, Key extends string>(
  table: Readonly<Record<Key, PrintedField<Source>>>,
  source: Source,
  compared = false,
): Record<Key, string | null> =>
  Object.fromEntries(
    Object.entries<PrintedField<Source>>(table).map(([key, field]) => [
      key,
      ((compared && field.compare) || field.print)(source),
    ]),
  ) as Record<Key, string | null>;

/** The exact sum of decimal strings, on their digits: `12.5` + `0.25` is `12.75`. */
function sumDecimals(values: readonly string[]): string {
  const decimals = Math.max(
    0,
    ...values.map((value) => value.split(".")[1]?.length ?? 0),
  );
  const total = values.reduce((sum, value) => {
    const [integer = "0", fraction = ""] = value.split(".");
    return sum + BigInt(integer + fraction.padEnd(decimals, "0"));
  }, 0n);
  const digits = total.toString().padStart(decimals + 1, "0");
  const integerLength = digits.length - decimals;
  return `${digits.slice(0, integerLength)}.${digits.slice(integerLength)}`;
}

function totalWeight(shipments: readonly Shipment[]): string | null {
  const weights = shipments.map((shipment) => shipment.goods.weight_kg);
  return weights.every((weight) => weight !== null)
    ? formatWeight(sumDecimals(weights))
    : null;
}

export function printedData(data: DocumentData): PrintedData {
  const shipments = shipmentsOf(data);
  return {
    fields: printAll(DOCUMENT_FIELDS, data),
    shipments: shipments.map((shipment) => printAll(SHIPMENT_FIELDS, shipment)),
    compared: {
      fields: printAll(DOCUMENT_FIELDS, data, true),
      shipments: shipments.map((shipment) =>
        printAll(SHIPMENT_FIELDS, shipment, true),
      ),
    },
    grouped: "shipments" in data,
    totalWeight: totalWeight(shipments),
  };
}
