import { describe, expect, it } from "vitest";
import {
  fullRequest,
  minimalRequest,
  type RequestBody,
} from "../../fixtures/requests";
import {
  canonicalJson,
  requestHash,
} from "../../src/domain/documents/request-hash";
import {
  type DocumentRequest,
  documentRequestSchema,
} from "../../src/schemas/document-request";
import { errorsOf, fieldCodes } from "../helpers/validation";

/** A single-shipment body, parsed: the shape every body here has. */
const parse = (body: unknown) =>
  documentRequestSchema.parse(body) as Extract<
    DocumentRequest,
    { goods: unknown }
  >;
const codes = (body: unknown) => fieldCodes(documentRequestSchema, body);

/** The full request with one change applied. */
function withFull(change: (body: RequestBody) => void) {
  const body = fullRequest();
  change(body);
  return body;
}

describe("document request normalization", () => {
  it("normalizes codes, tax ids, plates and the weight of a full body", () => {
    expect(parse(fullRequest())).toEqual({
      transport_date: "2026-11-21",
      shipper: {
        name: "Łódź Logistyka Sp. z o.o.",
        tax_country: "ES",
        tax_id: "B12345674",
        address: {
          street: "Calle Mayor 1",
          postal_code: "08001",
          city: "Barcelona",
          country: "ES",
        },
      },
      carrier: {
        name: "Ștefan Transport SRL",
        tax_country: "RO",
        tax_id: "RO123456",
        address: {
          street: "Odos Ermou 5",
          postal_code: "10563",
          city: "Αθήνα Ελλάδα",
          country: "GR",
        },
      },
      origin: {
        place: "Almacén Norte, muelle 4",
        street: "Polígono Industrial Sur",
        postal_code: "28001",
        city: "Madrid",
        country: "ES",
      },
      destination: {
        place: "Склад Москва (delegación Valencia)",
        street: "Muelle de Levante",
        postal_code: "46024",
        city: "Valencia",
        country: "ES",
      },
      goods: {
        description: "Palés de azulejos cerámicos",
        weight_kg: "12345.678",
        alternative_measure: null,
      },
      vehicle: {
        country: "ES",
        registration: "1234BCD",
        trailer_country: "ES",
        trailer_registration: "R1234BCD",
      },
      reference: "PED-2026-0001",
      special_authorization: { number: "AUT-77/2026", issuer: "DGT" },
      observations: "Entregar antes de las 14:00. Carga frágil.",
      metadata: { order: { id: 981, lines: [1, 2] }, erp: "SAP", zeta: true },
    });
  });

  it("returns omitted optional fields as null", () => {
    const parsed = parse(minimalRequest());
    expect(parsed.reference).toBeNull();
    expect(parsed.special_authorization).toBeNull();
    expect(parsed.observations).toBeNull();
    expect(parsed.metadata).toBeNull();
    expect(parsed.carrier.address).toBeNull();
    expect(parsed.origin).toEqual({
      place: "Almacén Central",
      street: null,
      postal_code: null,
      city: "Madrid",
      country: "ES",
    });
    expect(parsed.goods).toEqual({
      description: "Material de oficina",
      weight_kg: "120",
      alternative_measure: null,
    });
    expect(parsed.vehicle).toMatchObject({
      trailer_country: null,
      trailer_registration: null,
    });
  });

  it("treats null like an omitted optional field", () => {
    const body = minimalRequest();
    Object.assign(body, {
      reference: null,
      special_authorization: null,
      observations: null,
      metadata: null,
    });
    body.carrier.address = null;
    body.origin.street = null;
    body.goods.alternative_measure = null;
    body.vehicle.trailer_country = null;
    body.vehicle.trailer_registration = null;
    expect(parse(body)).toEqual(parse(minimalRequest()));
  });

  it("changes nothing when normalizing normalized data", () => {
    for (const body of [fullRequest(), minimalRequest()]) {
      const once = parse(body);
      expect(parse(once)).toEqual(once);
    }
  });

  it("keeps metadata unchanged, key order included", () => {
    const metadata = { zulu: 1, alpha: { y: [3, 2, 1], x: null }, mike: "m" };
    const parsed = parse({ ...minimalRequest(), metadata });
    expect(JSON.stringify(parsed.metadata)).toBe(JSON.stringify(metadata));
  });

  it.each([
    ["12.500", "12.5"],
    [12, "12"],
    ["12.000", "12"],
    [0.000001, "0.000001"],
    ["0.000001", "0.000001"],
    [0.1, "0.1"],
    ["100", "100"],
    [12.5, "12.5"],
    ["999999999999999.999999", "999999999999999.999999"],
    [999999999999999, "999999999999999"],
  ])("normalizes the weight %j to %j", (weight, normalized) => {
    const parsed = parse(withFull((b) => (b.goods.weight_kg = weight)));
    expect(parsed.goods.weight_kg).toBe(normalized);
  });

  it.each([
    [0],
    [-1],
    ["0"],
    ["0.000"],
    ["-1"],
    ["1e5"],
    [1e-7],
    [0.0000001],
    [0.30000000000000004],
    [1e15],
    ["1000000000000000"],
    ["1,5"],
    ["01.5"],
    ["1.1234567"],
    [".5"],
    ["5."],
    [" 5"],
  ])("rejects the weight %j as INVALID_DECIMAL", (weight) => {
    expect(codes(withFull((b) => (b.goods.weight_kg = weight)))).toEqual([
      ["goods.weight_kg", "INVALID_DECIMAL"],
    ]);
  });

  it("rejects a weight that is neither a string nor a number as INVALID_TYPE", () => {
    expect(codes(withFull((b) => (b.goods.weight_kg = true)))).toEqual([
      ["goods.weight_kg", "INVALID_TYPE"],
    ]);
  });

  it("normalizes and checks an alternative measure", () => {
    const body = withFull((b) => {
      delete b.goods.weight_kg;
      b.goods.alternative_measure = { value: "3.250", unit: "m³" };
    });
    expect(parse(body).goods).toMatchObject({
      weight_kg: null,
      alternative_measure: { value: "3.25", unit: "m³" },
    });
    body.goods.alternative_measure = { value: 3.25, unit: "" };
    expect(codes(body)).toEqual([
      ["goods.alternative_measure.value", "INVALID_TYPE"],
      ["goods.alternative_measure.unit", "TOO_SHORT"],
    ]);
    body.goods.alternative_measure = { value: "0" };
    expect(codes(body)).toEqual([
      ["goods.alternative_measure.value", "INVALID_DECIMAL"],
      ["goods.alternative_measure.unit", "REQUIRED"],
    ]);
  });
});

describe("dangerous goods", () => {
  it("keeps dangerous_goods when sent, and leaves it out when not sent or null", () => {
    expect(
      parse(withFull((b) => (b.goods.dangerous_goods = true))).goods,
    ).toMatchObject({ dangerous_goods: true });
    expect(
      parse(withFull((b) => (b.goods.dangerous_goods = false))).goods,
    ).toMatchObject({ dangerous_goods: false });
    expect(parse(fullRequest()).goods).not.toHaveProperty("dangerous_goods");
    expect(
      parse(withFull((b) => (b.goods.dangerous_goods = null))).goods,
    ).not.toHaveProperty("dangerous_goods");
    expect(codes(withFull((b) => (b.goods.dangerous_goods = "yes")))).toEqual([
      ["goods.dangerous_goods", "INVALID_TYPE"],
    ]);
  });

  it("leaves the request hash of a body without it as it was", async () => {
    const without = await requestHash(parse(fullRequest()));
    expect(
      await requestHash(
        parse(withFull((b) => (b.goods.dangerous_goods = null))),
      ),
    ).toBe(without);
    expect(
      await requestHash(
        parse(withFull((b) => (b.goods.dangerous_goods = true))),
      ),
    ).not.toBe(without);
  });
});

describe("the trailer's kind", () => {
  it("keeps trailer_kind when sent with a trailer, and leaves it out when not sent or null", () => {
    for (const kind of ["trailer", "semi_trailer"]) {
      expect(
        parse(withFull((b) => (b.vehicle.trailer_kind = kind))).vehicle,
      ).toMatchObject({ trailer_kind: kind });
    }
    expect(parse(fullRequest()).vehicle).not.toHaveProperty("trailer_kind");
    expect(
      parse(withFull((b) => (b.vehicle.trailer_kind = null))).vehicle,
    ).not.toHaveProperty("trailer_kind");
    expect(codes(withFull((b) => (b.vehicle.trailer_kind = "tanker")))).toEqual(
      [["vehicle.trailer_kind", "INVALID_VALUE"]],
    );
  });

  it("refuses a trailer_kind without a trailer", () => {
    const body = withFull((b) => {
      b.vehicle.trailer_country = null;
      b.vehicle.trailer_registration = null;
      b.vehicle.trailer_kind = "semi_trailer";
    });
    expect(codes(body)).toEqual([["vehicle.trailer_kind", "INVALID_VALUE"]]);
  });

  it("leaves the request hash of a body without it as it was", async () => {
    const without = await requestHash(parse(fullRequest()));
    expect(
      await requestHash(
        parse(withFull((b) => (b.vehicle.trailer_kind = null))),
      ),
    ).toBe(without);
  });
});

describe("document request rules", () => {
  it("lists every error at once: five wrong fields, five errors", () => {
    const body = withFull((b) => {
      b.transport_date = "2026-13-01";
      b.shipper.tax_id = "12345678A";
      b.origin.country = "FR";
      b.vehicle.registration = "12";
      b.reference = "no spaces";
    });
    expect(codes(body)).toEqual([
      ["transport_date", "INVALID_DATE"],
      ["shipper.tax_id", "INVALID_TAX_ID"],
      ["origin.country", "INVALID_VALUE"],
      ["vehicle.registration", "INVALID_REGISTRATION"],
      ["reference", "INVALID_FORMAT"],
    ]);
  });

  it("reports a wrong type on its path without hiding sibling errors", () => {
    const body = withFull((b) => {
      b.shipper = "Cargas SL";
      b.carrier.name = 7;
      b.carrier.tax_id = "12345678A";
      b.goods.description = "";
    });
    body.carrier.tax_country = "ES";
    expect(codes(body)).toEqual([
      ["shipper", "INVALID_TYPE"],
      ["carrier.name", "INVALID_TYPE"],
      ["carrier.tax_id", "INVALID_TAX_ID"],
      ["goods.description", "TOO_SHORT"],
    ]);
  });

  it("reports every missing required field", () => {
    expect(codes({})).toEqual(
      [
        "transport_date",
        "shipper",
        "carrier",
        "origin",
        "destination",
        "goods",
        "vehicle",
      ].map((field) => [field, "REQUIRED"]),
    );
    expect(codes({ ...minimalRequest(), shipper: { address: {} } })).toEqual([
      ["shipper.name", "REQUIRED"],
      ["shipper.tax_country", "REQUIRED"],
      ["shipper.tax_id", "REQUIRED"],
      ["shipper.address.street", "REQUIRED"],
      ["shipper.address.postal_code", "REQUIRED"],
      ["shipper.address.city", "REQUIRED"],
      ["shipper.address.country", "REQUIRED"],
    ]);
  });

  it.each([
    [(b: RequestBody) => (b.extra = 1), "extra"],
    [(b: RequestBody) => (b.shipper.nickname = "x"), "shipper.nickname"],
    [
      (b: RequestBody) => (b.shipper.address.floor = 2),
      "shipper.address.floor",
    ],
    [
      (b: RequestBody) => (b.carrier.address.floor = 2),
      "carrier.address.floor",
    ],
    [(b: RequestBody) => (b.origin.gps = "40,3"), "origin.gps"],
    [(b: RequestBody) => (b.goods.volume = 2), "goods.volume"],
    [
      (b: RequestBody) =>
        (b.goods.alternative_measure = { value: "1", unit: "u", x: 1 }),
      "goods.alternative_measure.x",
    ],
    [(b: RequestBody) => (b.vehicle.axles = 5), "vehicle.axles"],
    [
      (b: RequestBody) => (b.special_authorization.date = "x"),
      "special_authorization.date",
    ],
  ])(
    "rejects an unknown field (%#) as UNKNOWN_FIELD on %s",
    (change, field) => {
      const errors = codes(withFull(change));
      expect(errors).toContainEqual([field, "UNKNOWN_FIELD"]);
    },
  );

  it("requires exactly one of weight_kg and alternative_measure, on goods", () => {
    const both = withFull((b) => {
      b.goods.alternative_measure = { value: "1", unit: "m3" };
    });
    expect(codes(both)).toEqual([["goods", "EXACTLY_ONE_REQUIRED"]]);
    const neither = withFull((b) => delete b.goods.weight_kg);
    expect(codes(neither)).toEqual([["goods", "EXACTLY_ONE_REQUIRED"]]);
    const nulls = withFull((b) => {
      b.goods.weight_kg = null;
      b.goods.alternative_measure = null;
    });
    expect(codes(nulls)).toEqual([["goods", "EXACTLY_ONE_REQUIRED"]]);
  });

  it("requires both trailer fields or neither, on vehicle", () => {
    expect(codes(withFull((b) => delete b.vehicle.trailer_country))).toEqual([
      ["vehicle", "BOTH_OR_NEITHER"],
    ]);
    expect(
      codes(withFull((b) => (b.vehicle.trailer_registration = null))),
    ).toEqual([["vehicle", "BOTH_OR_NEITHER"]]);
    const none = withFull((b) => {
      delete b.vehicle.trailer_country;
      delete b.vehicle.trailer_registration;
    });
    expect(codes(none)).toEqual([]);
  });

  it("requires all four fields of a carrier address when one is sent", () => {
    expect(
      codes(withFull((b) => (b.carrier.address = { city: "Sevilla" }))),
    ).toEqual([
      ["carrier.address.street", "REQUIRED"],
      ["carrier.address.postal_code", "REQUIRED"],
      ["carrier.address.country", "REQUIRED"],
    ]);
  });

  it("upper-cases country codes and rejects what is not two letters", () => {
    expect(
      parse(withFull((b) => (b.shipper.tax_country = "pT"))).shipper
        .tax_country,
    ).toBe("PT");
    expect(codes(withFull((b) => (b.shipper.address.country = "ESP")))).toEqual(
      [["shipper.address.country", "INVALID_FORMAT"]],
    );
    expect(codes(withFull((b) => (b.vehicle.country = "E1")))).toEqual([
      ["vehicle.country", "INVALID_FORMAT"],
    ]);
    // ASCII upper-casing only: ß must not pass as "SS".
    expect(codes(withFull((b) => (b.carrier.address.country = "ß")))).toEqual([
      ["carrier.address.country", "INVALID_FORMAT"],
    ]);
  });

  it("accepts only ES for origin and destination, in any case", () => {
    expect(
      parse(withFull((b) => (b.origin.country = "es"))).origin.country,
    ).toBe("ES");
    expect(codes(withFull((b) => (b.destination.country = "PT")))).toEqual([
      ["destination.country", "INVALID_VALUE"],
    ]);
  });

  it("checks tax ids after normalization, lengths first", () => {
    expect(codes(withFull((b) => (b.shipper.tax_id = " - ")))).toEqual([
      ["shipper.tax_id", "TOO_SHORT"],
    ]);
    const foreign = "A".repeat(32);
    const parsed = parse(
      withFull(
        (b) =>
          (b.carrier.tax_id = `${foreign.slice(0, 16)}-${foreign.slice(16)}`),
      ),
    );
    expect(parsed.carrier.tax_id).toBe(foreign);
    expect(codes(withFull((b) => (b.carrier.tax_id = "A".repeat(33))))).toEqual(
      [["carrier.tax_id", "TOO_LONG"]],
    );
    expect(codes(withFull((b) => (b.carrier.tax_id = "RO.123")))).toEqual([
      ["carrier.tax_id", "INVALID_TAX_ID"],
    ]);
  });

  it("checks the tax id against its own country", () => {
    const spanishIdAbroad = withFull((b) => {
      b.shipper.tax_country = "FR";
      b.shipper.tax_id = "12345678A";
    });
    expect(codes(spanishIdAbroad)).toEqual([]);
    expect(codes(withFull((b) => (b.carrier.tax_country = "ES")))).toEqual([
      ["carrier.tax_id", "INVALID_TAX_ID"],
    ]);
  });

  it("checks registrations by country and kind, lengths first", () => {
    expect(
      codes(withFull((b) => (b.vehicle.trailer_registration = "1234BCD"))),
    ).toEqual([["vehicle.trailer_registration", "INVALID_REGISTRATION"]]);
    expect(
      codes(withFull((b) => (b.vehicle.registration = "X".repeat(21)))),
    ).toEqual([["vehicle.registration", "TOO_LONG"]]);
    const foreign = withFull((b) => {
      b.vehicle.country = "fr";
      b.vehicle.registration = "ab-123-cd";
    });
    expect(parse(foreign).vehicle).toMatchObject({
      country: "FR",
      registration: "AB123CD",
    });
    expect(
      codes({ ...foreign, vehicle: { country: "FR", registration: "AB" } }),
    ).toEqual([["vehicle.registration", "INVALID_REGISTRATION"]]);
  });

  it.each([
    ["2028-02-29", []],
    ["2026-02-29", [["transport_date", "INVALID_DATE"]]],
    // Every year of four digits, those before 100 and leap years included.
    ["0000-02-29", []],
    ["0004-02-29", []],
    ["0099-12-31", []],
    ["0001-01-01", []],
    ["9999-12-31", []],
    ["0100-02-29", [["transport_date", "INVALID_DATE"]]],
    ["0003-02-29", [["transport_date", "INVALID_DATE"]]],
    ["0050-04-31", [["transport_date", "INVALID_DATE"]]],
    ["2026-00-10", [["transport_date", "INVALID_DATE"]]],
    ["2026-13-10", [["transport_date", "INVALID_DATE"]]],
    ["2026-12-00", [["transport_date", "INVALID_DATE"]]],
    ["2026-02-30", [["transport_date", "INVALID_DATE"]]],
    ["2026-1-05", [["transport_date", "INVALID_DATE"]]],
    ["2026-11-21T10:00:00Z", [["transport_date", "INVALID_DATE"]]],
    [20261121, [["transport_date", "INVALID_TYPE"]]],
  ])("judges the transport date %j", (date, expected) => {
    expect(codes(withFull((b) => (b.transport_date = date)))).toEqual(expected);
  });

  it.each([
    ["A".repeat(120), []],
    ["a-B-9", []],
    [null, []],
    ["A".repeat(121), [["reference", "TOO_LONG"]]],
    ["", [["reference", "TOO_SHORT"]]],
    ["REF 1", [["reference", "INVALID_FORMAT"]]],
    ["REF-1\n", [["reference", "INVALID_FORMAT"]]],
    ["REF_1", [["reference", "INVALID_FORMAT"]]],
    ["año", [["reference", "INVALID_FORMAT"]]],
    [`${"ñ".repeat(121)}`, [["reference", "TOO_LONG"]]],
    [42, [["reference", "INVALID_TYPE"]]],
  ])("judges the reference %j", (reference, expected) => {
    expect(codes(withFull((b) => (b.reference = reference)))).toEqual(expected);
  });

  it("counts lengths in characters, not UTF-16 units or bytes", () => {
    const astral = "😀"; // two UTF-16 units, four UTF-8 bytes
    expect(
      codes(withFull((b) => (b.shipper.name = astral.repeat(255)))),
    ).toEqual([]);
    expect(
      codes(withFull((b) => (b.shipper.name = astral.repeat(256)))),
    ).toEqual([["shipper.name", "TOO_LONG"]]);
    expect(codes(withFull((b) => (b.observations = "é".repeat(4000))))).toEqual(
      [],
    );
    expect(codes(withFull((b) => (b.observations = "é".repeat(4001))))).toEqual(
      [["observations", "TOO_LONG"]],
    );
    expect(
      codes(withFull((b) => (b.goods.description = "€".repeat(2001)))),
    ).toEqual([["goods.description", "TOO_LONG"]]);
  });

  it("refuses control characters and unpaired surrogates in text", () => {
    expect(codes(withFull((b) => (b.shipper.name = "Cargas\u0000SL")))).toEqual(
      [["shipper.name", "INVALID_FORMAT"]],
    );
    expect(codes(withFull((b) => (b.origin.place = "Muelle \uD800")))).toEqual([
      ["origin.place", "INVALID_FORMAT"],
    ]);
    expect(
      codes(withFull((b) => (b.observations = "Línea 1\nLínea 2\tfin"))),
    ).toEqual([]);
  });

  it("takes special_authorization as an object or null", () => {
    expect(
      parse(withFull((b) => (b.special_authorization = { number: "7" })))
        .special_authorization,
    ).toEqual({
      number: "7",
      issuer: null,
    });
    expect(codes(withFull((b) => (b.special_authorization = {})))).toEqual([
      ["special_authorization.number", "REQUIRED"],
    ]);
    expect(codes(withFull((b) => (b.special_authorization = "AUT-1")))).toEqual(
      [["special_authorization", "INVALID_TYPE"]],
    );
  });

  it("limits metadata to 8 levels, counting itself", () => {
    const nested = (levels: number): Record<string, unknown> =>
      levels === 1 ? { leaf: true } : { next: nested(levels - 1) };
    expect(codes(withFull((b) => (b.metadata = nested(8))))).toEqual([]);
    expect(codes(withFull((b) => (b.metadata = nested(9))))).toEqual([
      ["metadata", "METADATA_TOO_DEEP"],
    ]);
  });

  it("limits metadata to 16 KiB of compact UTF-8 JSON", () => {
    // {"t":"…"} is 8 bytes around the text; "é" is two bytes in UTF-8.
    const fits = { t: "é".repeat((16384 - 8) / 2) };
    expect(new TextEncoder().encode(JSON.stringify(fits)).byteLength).toBe(
      16384,
    );
    expect(codes(withFull((b) => (b.metadata = fits)))).toEqual([]);
    const over = { t: `${fits.t}x` };
    expect(codes(withFull((b) => (b.metadata = over)))).toEqual([
      ["metadata", "METADATA_TOO_LARGE"],
    ]);
  });

  it("takes metadata only as an object or null", () => {
    for (const metadata of [[1, 2], "text", 5, true]) {
      expect(codes(withFull((b) => (b.metadata = metadata)))).toEqual([
        ["metadata", "INVALID_TYPE"],
      ]);
    }
  });

  it("says what is wrong in words, with the field's path", () => {
    const [error] = errorsOf(
      documentRequestSchema,
      withFull((b) => (b.shipper.name = "")),
    );
    expect(error).toEqual({
      field: "shipper.name",
      code: "TOO_SHORT",
      message: "Must not be empty.",
    });
  });
});

describe("request hash", () => {
  it("ignores key order, of the request and of the metadata", async () => {
    const request = parse(fullRequest());
    const reordered = JSON.parse(canonicalJson(request)) as typeof request;
    expect(Object.keys(reordered)).not.toEqual(Object.keys(request));
    expect(await requestHash(reordered)).toBe(await requestHash(request));
  });

  it("changes with any datum or metadata value", async () => {
    const request = parse(fullRequest());
    const base = await requestHash(request);
    expect(await requestHash({ ...request, observations: "otra" })).not.toBe(
      base,
    );
    expect(
      await requestHash({
        ...request,
        metadata: { ...request.metadata, erp: "SAGE" },
      }),
    ).not.toBe(base);
    expect(await requestHash({ ...request, metadata: null })).not.toBe(base);
  });
});
