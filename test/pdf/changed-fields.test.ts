import { describe, expect, it } from "vitest";
import {
  fullRequest,
  groupedRequest,
  type RequestBody,
} from "../../fixtures/requests";
import {
  type Change,
  changedFields,
  isVehicleChange,
} from "../../src/pdf/changed-fields";
import { changeItem } from "../../src/pdf/field-names";
import { documentWording } from "../../src/pdf/i18n";
import { printedData } from "../../src/pdf/printed-fields";
import {
  documentRequestSchema,
  splitRequest,
} from "../../src/schemas/document-request";

/** What a request body prints, its data normalized as the service stores it. */
const printedOf = (body: RequestBody) =>
  printedData(splitRequest(documentRequestSchema.parse(body)).data);

/** A change in short: `goods.weight_kg`, `3: goods.weight_kg`, `4: shipment added`. */
const short = (change: Change): string => {
  switch (change.kind) {
    case "field":
      return change.field;
    case "shipment field":
      return change.shipment === null
        ? change.field
        : `${change.shipment}: ${change.field}`;
    case "shipment added":
    case "shipment removed":
      return `${change.shipment}: ${change.kind}`;
    default:
      return change.kind;
  }
};

/** Whether the changes include a change of vehicle. */
const changesVehicle = (changes: readonly Change[]): boolean =>
  changes.some(isVehicleChange);

/** The items a correction in English (with the Spanish) or in Spanish lists. */
const items = (locale: "en" | "es", changes: readonly Change[]): string[] =>
  changes.map((change) => changeItem(documentWording(locale), change));

/** The changes from `before` to `before` changed by `change`. */
function changesTo(
  before: () => RequestBody,
  change: (body: RequestBody) => void,
): Change[] {
  const corrected = before();
  change(corrected);
  return changedFields(printedOf(before()), printedOf(corrected));
}

/** The fields that change from the full request to the same request changed by `change`. */
const changesMadeBy = (change: (body: RequestBody) => void) =>
  changesTo(fullRequest, change).map(short);

describe("the fields a correction changes", () => {
  it("are none for the same data written differently, or other metadata and reference", () => {
    expect(
      changesMadeBy((body) => {
        body.vehicle.registration = "1234 BCD";
        body.vehicle.trailer_registration = "R-1234-BCD";
        body.shipper.tax_id = "B12345674";
        body.goods.weight_kg = 12345.678;
        body.vehicle.country = "ES";
        body.reference = "PED-2026-0001-B";
        body.metadata = { erp: "another" };
      }),
    ).toEqual([]);
  });

  it("count a weight changed beyond the 3 decimals it prints, shown with all its decimals", () => {
    const changes = changesTo(fullRequest, (body) => {
      body.goods.weight_kg = "12345.6781";
    });
    expect(changes.map(short)).toEqual(["goods.weight_kg"]);
    expect(items("es", changes)).toEqual([
      "Peso: 12.345,678 kg → 12.345,6781 kg",
    ]);
  });

  it("are listed in printed order, a plate as a change of vehicle", () => {
    const fields = changesMadeBy((body) => {
      body.observations = "Otra observación";
      body.vehicle.registration = "5678DFG";
      body.goods.weight_kg = "13000";
      body.transport_date = "2026-11-22";
    });
    expect(fields).toEqual([
      "transport_date",
      "goods.weight_kg",
      "vehicle.registration",
      "observations",
    ]);
  });

  it("count a trailer taken off as a change of vehicle", () => {
    const fields = changesMadeBy((body) => {
      body.vehicle.trailer_country = null;
      body.vehicle.trailer_registration = null;
    });
    expect(fields).toEqual(["vehicle.trailer_registration"]);
  });

  it("name a field by what it prints: a tax id with its country, an address whole", () => {
    expect(
      changesMadeBy((body) => {
        body.carrier.tax_country = "ES";
        body.carrier.tax_id = "A58818501";
        body.carrier.address = null;
        body.origin.postal_code = "28002";
        body.destination.place = "Otro muelle";
      }),
    ).toEqual([
      "carrier.tax_id",
      "carrier.address",
      "origin.address",
      "destination.place",
    ]);
  });

  it("list both quantities when a weight becomes another measure, and no change of vehicle", () => {
    const fields = changesMadeBy((body) => {
      body.goods.weight_kg = null;
      body.goods.alternative_measure = { value: "24", unit: "palés" };
      body.special_authorization = null;
    });
    expect(fields).toEqual([
      "goods.weight_kg",
      "goods.alternative_measure",
      "special_authorization.number",
      "special_authorization.issuer",
    ]);
  });

  it("name a change of registration or trailer, and nothing else, a change of vehicle", () => {
    const vehicle = (change: (body: RequestBody) => void) =>
      changesVehicle(changesTo(fullRequest, change));
    expect(
      vehicle((body) => {
        body.vehicle.registration = "5678DFG";
      }),
    ).toBe(true);
    expect(
      vehicle((body) => {
        body.vehicle.trailer_country = null;
        body.vehicle.trailer_registration = null;
      }),
    ).toBe(true);
    expect(
      vehicle((body) => {
        body.goods.weight_kg = null;
        body.goods.alternative_measure = { value: "24", unit: "palés" };
      }),
    ).toBe(false);
  });
});

describe("the changes of a grouped document", () => {
  const route = () => groupedRequest(5);

  it("name each shipment's changed fields by its number, in printed order, the vehicle before the shipments", () => {
    const changes = changesTo(route, (body) => {
      body.shipments[3].goods.weight_kg = 99;
      body.shipments[3].goods.description = "Otro pedido";
      body.shipments[0].destination.city = "Talavera";
      body.vehicle.registration = "9999JKL";
      body.observations = "Nueva";
    });
    expect(changes.map(short)).toEqual([
      "vehicle.registration",
      "1: destination.address",
      "4: goods.description",
      "4: goods.weight_kg",
      "observations",
    ]);
    expect(changesVehicle(changes)).toBe(true);
    // Long texts by their label alone, other fields with both texts.
    expect(items("en", changes)).toEqual([
      "Vehicle registration / Matrícula del vehículo: 5678DFG (ES) → 9999JKL (ES)",
      "Shipment 1: Destination (place of unloading) — Address / Envío 1: Destino (lugar de descarga) — Dirección",
      "Shipment 4: Nature of the goods / Envío 4: Naturaleza de la mercancía",
      "Shipment 4: Weight / Envío 4: Peso: 4 kg → 99 kg",
      "Observations / Observaciones",
    ]);
    expect(items("es", changes)).toEqual([
      "Matrícula del vehículo: 5678DFG (ES) → 9999JKL (ES)",
      "Envío 1: Destino (lugar de descarga) — Dirección",
      "Envío 4: Naturaleza de la mercancía",
      "Envío 4: Peso: 4 kg → 99 kg",
      "Observaciones",
    ]);
  });

  it("name a shipment added at the end, or removed from it, by its number", () => {
    const added = changesTo(route, (body) => {
      body.shipments.push(groupedRequest(6).shipments[5]);
    });
    expect(added.map(short)).toEqual(["6: shipment added"]);
    expect(items("en", added)).toEqual([
      "Shipment 6: added / Envío 6: añadido",
    ]);
    const removed = changesTo(route, (body) => {
      body.shipments.pop();
      body.shipments.pop();
    });
    expect(removed.map(short)).toEqual([
      "4: shipment removed",
      "5: shipment removed",
    ]);
    expect(items("es", removed)).toEqual([
      "Envío 4: suprimido",
      "Envío 5: suprimido",
    ]);
  });

  it("say that a single-shipment document became grouped, and back, comparing its shipment with the first", () => {
    const single = () => {
      const { shipments, ...body } = groupedRequest(2);
      return { ...body, ...shipments[0] };
    };
    const grouped = changesTo(single, (body) => {
      const { origin, destination, goods, ...rest } = body;
      for (const key of Object.keys(body)) delete body[key];
      Object.assign(body, groupedRequest(2), rest);
      body.shipments[0].goods.weight_kg = 7;
    });
    expect(grouped.map(short)).toEqual([
      "became grouped",
      "1: goods.weight_kg",
      "2: shipment added",
    ]);
    expect(items("en", grouped)).toEqual([
      "Grouped document: several shipments instead of one / Documento agrupado: varios envíos en lugar de uno",
      "Shipment 1: Weight / Envío 1: Peso: 1 kg → 7 kg",
      "Shipment 2: added / Envío 2: añadido",
    ]);
    const back = changedFields(
      printedOf(groupedRequest(2)),
      printedOf(single()),
    );
    expect(back.map(short)).toEqual(["became single", "2: shipment removed"]);
    expect(items("es", back)).toEqual([
      "Un solo envío en lugar de varios",
      "Envío 2: suprimido",
    ]);
  });

  it("are none for the same shipments written differently", () => {
    expect(
      changesTo(route, (body) => {
        body.shipments[1].goods.weight_kg = "2.000";
        body.shipments[1].origin.country = "es";
      }),
    ).toEqual([]);
  });
});
