// A stored document as eFTI consignments of the common data set: one per
// shipment (a grouped document of N shipments gives N). The mapping, field
// by field, with each element's eFTI id and ES01 status: docs/efti.md.

import { toIsoTime } from "../../clock";
import type { DocumentRow } from "../../db/schema";
import {
  type DocumentData,
  type Shipment,
  shipmentsOf,
} from "../../schemas/document-request";
import type { TransportLocation } from "../../schemas/transport-location";
import { uuidCreatedAt } from "../shard-routing";
import {
  DATE_FORMAT,
  EU_VAT_PREFIXES,
  KILOGRAM_UNIT,
  ROAD_TRANSPORT_MODE,
  TRAILER_EQUIPMENT_CATEGORIES,
  TRUCK_MEANS_TYPE,
} from "./codes";
import { datasetId } from "./dataset-id";
import {
  cutText,
  fittedMeasure,
  informationLines,
  type Note,
  splitText,
} from "./fit";
import { COUNTRY_CODES } from "./schema-facts.generated";
import { leaf, parent, type XmlElement } from "./xml";

/**
 * What the export reads of a stored document: its row's facts (when it was
 * issued, the document it corrects and the one that corrected it, or null)
 * and its data.
 */
export type ExportedDocument = Pick<
  DocumentRow,
  "uuid" | "createdAt" | "rectifiesUuid" | "rectifiedByUuid"
> & { data: DocumentData };

/** One shipment of a document as a consignment, the root element of its XML. */
export interface Consignment {
  datasetId: string;
  /** 1 for the first shipment. */
  shipmentNumber: number;
  root: XmlElement;
}

/** The labels of the `information` lines, in the order they are written. */
const LABELS = {
  document: "DeCA document",
  issuedAt: "Issued at",
  reference: "DeCA reference",
  rectifies: "Rectifies DeCA document",
  rectifiedBy: "Rectified by DeCA document",
  dangerousGoods: "Dangerous goods",
  exactWeight: "Gross weight (exact)",
  alternativeMeasure: "Alternative measure",
  specialAuthorization: "Special authorization",
  observations: "Observations",
} as const;

type Party = DocumentData["shipper"] | DocumentData["carrier"];
type Address = NonNullable<DocumentData["carrier"]["address"]>;

/**
 * A country code as the XSD's code list accepts it, or nothing: a code our
 * contract accepts but ISO's 2006 list lacks is noted under `label` instead.
 */
function countryCode(
  name: string,
  code: string,
  label: string,
  notes: Note[],
): XmlElement | null {
  if (COUNTRY_CODES.has(code)) return leaf(name, code);
  notes.push({ label, value: code });
  return null;
}

/** A TradeAddress, its elements in the XSD's order. */
const postalAddress = (
  prefix: string,
  address: Pick<Address, "city" | "country"> & {
    street: string | null;
    postal_code: string | null;
  },
  label: string,
  notes: Note[],
): XmlElement[] =>
  parent("postalAddress", [
    splitText(`${prefix}/postalAddress/cityName`, address.city),
    countryCode("countryCode", address.country, `${label} country`, notes),
    address.postal_code === null
      ? null
      : splitText(`${prefix}/postalAddress/postcode`, address.postal_code),
    address.street === null
      ? null
      : splitText(`${prefix}/postalAddress/streetName`, address.street),
  ]);

/**
 * The tax id as the request holds it, with the scheme it belongs to: a
 * national id (a NIF, which need not be registered for intra-EU VAT) with
 * its country as `schemeAgencyId`; an id written as an EU VAT number (its
 * country's VAT prefix first: `EL` for Greece) as it is, which says its
 * country itself.
 */
function taxRegistrationId(
  role: "consignor" | "carrier",
  { tax_country, tax_id }: Pick<Party, "tax_country" | "tax_id">,
  label: string,
  notes: Note[],
): XmlElement {
  const id = cutText(`${role}/taxRegistration/id`, tax_id, label, notes);
  const vatPrefix = EU_VAT_PREFIXES[tax_country];
  return vatPrefix !== undefined && tax_id.startsWith(vatPrefix)
    ? id
    : { ...id, attributes: { schemeAgencyId: tax_country } };
}

/** The shipper as consignor, the carrier as carrier (TradeParty). */
const tradeParty = (
  role: "consignor" | "carrier",
  party: Party,
  label: string,
  notes: Note[],
): XmlElement[] =>
  parent(role, [
    splitText(`${role}/name`, party.name),
    party.address
      ? postalAddress(role, party.address, `${label} address`, notes)
      : null,
    parent("taxRegistration", [
      taxRegistrationId(role, party, `${label} tax id`, notes),
    ]),
  ]);

/** Where the goods are taken over or delivered (LogisticsLocation). */
const location = (
  role: "carrierAcceptanceLocation" | "consigneeReceiptLocation",
  place: TransportLocation,
  label: string,
  notes: Note[],
): XmlElement[] =>
  parent(role, [
    splitText(`${role}/name`, place.place),
    postalAddress(role, place, label, notes),
  ]);

/**
 * The correcting document and when it was issued, which its uuid carries
 * (none for a uuid issued before sharding: the uuid alone).
 */
function rectification(correctingUuid: string): string {
  const correctedAt = uuidCreatedAt(correctingUuid);
  return correctedAt === null
    ? correctingUuid
    : `${correctingUuid}, at ${toIsoTime(correctedAt)}`;
}

/** CCYYMMDD from YYYY-MM-DD. */
const compactDate = (date: string): string => date.replaceAll("-", "");

function transportMovement(
  vehicle: DocumentData["vehicle"],
  goods: Shipment["goods"],
  notes: Note[],
): XmlElement[] {
  const prefix = "mainCarriageTransportMovement";
  return parent(prefix, [
    // Goods not declared dangerous are not (docs/efti.md, "Dangerous goods").
    leaf("dangerousGoodsIndicator", String(goods.dangerous_goods === true)),
    leaf("modeCode", ROAD_TRANSPORT_MODE),
    parent("usedTransportMeans", [
      cutText(
        `${prefix}/usedTransportMeans/id`,
        vehicle.registration,
        "Vehicle registration (whole)",
        notes,
      ),
      parent("registrationCountry", [
        countryCode("code", vehicle.country, "Vehicle country", notes),
      ]),
      leaf("typeCode", TRUCK_MEANS_TYPE),
    ]),
  ]);
}

function trailer(
  vehicle: DocumentData["vehicle"],
  notes: Note[],
): XmlElement[] {
  if (vehicle.trailer_registration === null || vehicle.trailer_country === null)
    return [];
  return parent("usedTransportEquipment", [
    leaf(
      "categoryCode",
      TRAILER_EQUIPMENT_CATEGORIES[vehicle.trailer_kind ?? "trailer"],
    ),
    cutText(
      "usedTransportEquipment/id",
      vehicle.trailer_registration,
      "Trailer registration (whole)",
      notes,
    ),
    parent("registrationCountry", [
      countryCode("code", vehicle.trailer_country, "Trailer country", notes),
    ]),
    leaf("sequenceNumber", "1"),
  ]);
}

/** The gross weight in kilograms, or nothing when the goods have another measure. */
function grossWeight(goods: Shipment["goods"], notes: Note[]): XmlElement[] {
  if (goods.weight_kg === null) {
    const measure = goods.alternative_measure;
    if (measure) {
      notes.push({
        label: LABELS.alternativeMeasure,
        value: `${measure.value} ${measure.unit}`,
      });
    }
    return [];
  }
  const fitted = fittedMeasure(goods.weight_kg);
  if (!fitted.exact) {
    notes.push({ label: LABELS.exactWeight, value: `${goods.weight_kg} kg` });
  }
  return [leaf("grossWeight", fitted.value, { unitId: KILOGRAM_UNIT })];
}

/** The consignment of one shipment, its elements in the XSD's order. */
function consignmentRoot(
  document: ExportedDocument,
  shipment: Shipment,
  shipmentNumber: number,
  shipmentCount: number,
): XmlElement {
  const { data } = document;
  const notes: Note[] = [
    {
      label: LABELS.document,
      value:
        shipmentCount === 1
          ? document.uuid
          : `${document.uuid}, shipment ${shipmentNumber} of ${shipmentCount}`,
    },
  ];
  // A correction's issue time is the time of the correction.
  notes.push({ label: LABELS.issuedAt, value: toIsoTime(document.createdAt) });
  if (data.reference !== null) {
    notes.push({ label: LABELS.reference, value: data.reference });
  }
  if (document.rectifiesUuid !== null) {
    notes.push({ label: LABELS.rectifies, value: document.rectifiesUuid });
  }
  if (document.rectifiedByUuid !== null) {
    notes.push({
      label: LABELS.rectifiedBy,
      value: rectification(document.rectifiedByUuid),
    });
  }
  // ES01 has no dangerous goods indicator: the line says it there.
  if (shipment.goods.dangerous_goods === true) {
    notes.push({ label: LABELS.dangerousGoods, value: "yes" });
  }
  // Built in the XSD's order, which is also the notes' order.
  const carrier = tradeParty("carrier", data.carrier, "Carrier", notes);
  const acceptance = location(
    "carrierAcceptanceLocation",
    shipment.origin,
    "Origin",
    notes,
  );
  const receipt = location(
    "consigneeReceiptLocation",
    shipment.destination,
    "Destination",
    notes,
  );
  const consignor = tradeParty("consignor", data.shipper, "Shipper", notes);
  const weight = grossWeight(shipment.goods, notes);
  const movement = transportMovement(data.vehicle, shipment.goods, notes);
  const equipment = trailer(data.vehicle, notes);
  const authorization = data.special_authorization;
  if (authorization) {
    notes.push({
      label: LABELS.specialAuthorization,
      value:
        authorization.issuer === null
          ? authorization.number
          : `${authorization.number}, issued by ${authorization.issuer}`,
    });
  }
  if (data.observations) {
    notes.push({ label: LABELS.observations, value: data.observations });
  }
  return {
    name: "consignment",
    children: [
      ...carrier,
      leaf("carrierAcceptanceDateTime", compactDate(data.transport_date), {
        formatId: DATE_FORMAT,
      }),
      ...acceptance,
      ...receipt,
      ...consignor,
      ...weight,
      ...informationLines(notes),
      ...movement,
      ...parent("natureIdentificationCargo", [
        splitText(
          "natureIdentificationCargo/identificationText",
          shipment.goods.description,
        ),
      ]),
      ...equipment,
    ],
  };
}

/** Each shipment of `document` as a consignment of the common data set, in order. */
export function consignmentsOf(
  document: ExportedDocument,
): Promise<Consignment[]> {
  const shipments = shipmentsOf(document.data);
  return Promise.all(
    shipments.map(async (shipment, index) => ({
      datasetId: await datasetId(document.uuid, index + 1),
      shipmentNumber: index + 1,
      root: consignmentRoot(document, shipment, index + 1, shipments.length),
    })),
  );
}

/** The dataset id of each shipment of `document`, in order, without building any consignment. */
export function datasetsOf(
  document: Pick<ExportedDocument, "uuid" | "data">,
): Promise<Omit<Consignment, "root">[]> {
  return Promise.all(
    shipmentsOf(document.data).map(async (_, index) => ({
      datasetId: await datasetId(document.uuid, index + 1),
      shipmentNumber: index + 1,
    })),
  );
}

/**
 * The one consignment of `document` whose dataset id is `id`, or undefined:
 * only that shipment's consignment is built (a route holds up to 100).
 */
export async function consignmentWithId(
  document: ExportedDocument,
  id: string,
): Promise<Consignment | undefined> {
  const found = (await datasetsOf(document)).find(
    (dataset) => dataset.datasetId === id,
  );
  if (!found) return undefined;
  const shipments = shipmentsOf(document.data);
  const shipment = shipments[found.shipmentNumber - 1] as Shipment;
  return {
    ...found,
    root: consignmentRoot(
      document,
      shipment,
      found.shipmentNumber,
      shipments.length,
    ),
  };
}
