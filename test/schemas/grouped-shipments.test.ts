import { describe, expect, it } from "vitest";
import { groupedRequest, minimalRequest } from "../../fixtures/requests";
import {
  canonicalJson,
  requestHash,
} from "../../src/domain/documents/request-hash";
import {
  documentRequestSchema,
  shipmentsOf,
  splitRequest,
} from "../../src/schemas/document-request";
import { fieldCodes } from "../helpers/validation";

const parse = (body: unknown) => documentRequestSchema.parse(body);
const codes = (body: unknown) => fieldCodes(documentRequestSchema, body);

describe("grouped shipments in the request body", () => {
  it("normalizes every shipment and keeps no top-level origin, destination or goods", () => {
    const body = groupedRequest(3);
    body.shipments[0].origin.country = "es";
    const { data } = splitRequest(parse(body));
    expect(data).not.toHaveProperty("origin");
    expect(data).not.toHaveProperty("destination");
    expect(data).not.toHaveProperty("goods");
    expect(shipmentsOf(data)).toHaveLength(3);
    expect(shipmentsOf(data)[0]?.origin.country).toBe("ES");
    expect(shipmentsOf(data)[0]?.goods.weight_kg).toBe("1");
    expect(shipmentsOf(data)[2]?.goods.alternative_measure).toEqual({
      value: "3",
      unit: "palés",
    });
  });

  it("leaves a single-shipment body exactly as before: no shipments key", () => {
    const single = splitRequest(parse(minimalRequest())).data;
    expect(single).not.toHaveProperty("shipments");
    const withNull = { ...minimalRequest(), shipments: null };
    expect(canonicalJson(parse(withNull))).toBe(
      canonicalJson(parse(minimalRequest())),
    );
  });

  it("answers EXACTLY_ONE_REQUIRED on shipments when both shapes are sent", () => {
    const body = { ...groupedRequest(2), origin: minimalRequest().origin };
    expect(codes(body)).toEqual([["shipments", "EXACTLY_ONE_REQUIRED"]]);
  });

  it("keeps the single shape's REQUIRED errors when neither is sent", () => {
    const { shipments: _, ...body } = groupedRequest(2);
    expect(codes(body)).toEqual([
      ["origin", "REQUIRED"],
      ["destination", "REQUIRED"],
      ["goods", "REQUIRED"],
    ]);
    const onlyOrigin = { ...body, origin: minimalRequest().origin };
    expect(codes(onlyOrigin)).toEqual([
      ["destination", "REQUIRED"],
      ["goods", "REQUIRED"],
    ]);
  });

  it("names the item's zero-based index in an error inside shipments", () => {
    const body = groupedRequest(5);
    body.shipments[3].goods.weight_kg = "-1";
    body.shipments[4].destination.country = "FR";
    body.shipments[1].extra = true;
    expect(codes(body)).toEqual([
      ["shipments.1.extra", "UNKNOWN_FIELD"],
      ["shipments.3.goods.weight_kg", expect.any(String)],
      ["shipments.4.destination.country", "INVALID_VALUE"],
    ]);
  });

  it("takes 2 to 100 shipments", () => {
    expect(codes(groupedRequest(1))).toEqual([["shipments", "TOO_SHORT"]]);
    expect(codes(groupedRequest(101))).toEqual([["shipments", "TOO_LONG"]]);
    expect(codes(groupedRequest(100))).toEqual([]);
  });

  it("hashes a body without shipments as it always did", async () => {
    // The hash that the code before grouped documents gave this body.
    expect(await requestHash(parse(minimalRequest()))).toMatchInlineSnapshot(
      `"c05a1770604cb908e5f0d0085e874f1ed439ac720685ee21666f09a73ce0bc55"`,
    );
  });
});
