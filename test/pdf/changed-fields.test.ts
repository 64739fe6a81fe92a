import { describe, expect, it } from "vitest";
import { fullRequest, type RequestBody } from "../../fixtures/requests";
import { changedFields, changesVehicle } from "../../src/pdf/changed-fields";
import {
  documentRequestSchema,
  splitRequest,
} from "../../src/schemas/document-request";

/** The normalized data of a request body, as the service stores it. */
const dataOf = (body: RequestBody) =>
  splitRequest(documentRequestSchema.parse(body)).data;

/** The fields that change from the full request to the same request changed by `change`. */
function changesMadeBy(change: (body: RequestBody) => void) {
  const corrected = fullRequest();
  change(corrected);
  return changedFields(dataOf(fullRequest()), dataOf(corrected));
}

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
    expect(changesVehicle(fields)).toBe(true);
  });

  it("count a trailer taken off as a change of vehicle", () => {
    const fields = changesMadeBy((body) => {
      body.vehicle.trailer_country = null;
      body.vehicle.trailer_registration = null;
    });
    expect(fields).toEqual(["vehicle.trailer_registration"]);
    expect(changesVehicle(fields)).toBe(true);
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
    expect(changesVehicle(fields)).toBe(false);
  });
});
