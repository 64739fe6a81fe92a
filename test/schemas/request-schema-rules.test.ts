import { type Schema, validate } from "@cfworker/json-schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fullRequest, type RequestBody } from "../../fixtures/requests";
import { positiveDecimal } from "../../src/schemas/decimal";
import { deleteRequestSchema } from "../../src/schemas/delete-request";
import { documentRequestSchema } from "../../src/schemas/document-request";
import { indexedApiDocument } from "../helpers/indexed-document";

// The request schemas of the OpenAPI document state every rule JSON Schema
// can state: for bodies that break none of the rules it cannot (check
// characters, Spain's plate formats), the document and the service agree.

const { document, lookup } = indexedApiDocument<{
  components: { schemas: Record<string, Schema> };
}>();
const documentAccepts = (name: string, body: unknown): boolean =>
  validate(body, document.components.schemas[name] as Schema, "2020-12", lookup)
    .valid;

const withChange = (change: (body: RequestBody) => void): RequestBody => {
  const body = fullRequest();
  change(body);
  return body;
};

const BODIES: [string, RequestBody][] = [
  ["the full request", fullRequest()],
  [
    "weight and measure both",
    withChange((b) => {
      b.goods.weight_kg = "1";
      b.goods.alternative_measure = { value: "2", unit: "palés" };
    }),
  ],
  [
    "neither weight nor measure",
    withChange((b) => {
      delete b.goods.weight_kg;
      b.goods.alternative_measure = null;
    }),
  ],
  [
    "a measure and a null weight",
    withChange((b) => {
      b.goods.weight_kg = null;
      b.goods.alternative_measure = { value: "2", unit: "palés" };
    }),
  ],
  [
    "a numeric weight of 0.1",
    withChange((b) => {
      b.goods.weight_kg = 0.1;
    }),
  ],
  [
    "a numeric weight of 1e-7",
    withChange((b) => {
      b.goods.weight_kg = 1e-7;
    }),
  ],
  [
    "a numeric weight of 0.1 + 0.2",
    withChange((b) => {
      b.goods.weight_kg = 0.1 + 0.2;
    }),
  ],
  [
    "a weight of 7 decimals",
    withChange((b) => {
      b.goods.weight_kg = "1.0000001";
    }),
  ],
  [
    "a weight of 10^15",
    withChange((b) => {
      b.goods.weight_kg = 1e15;
    }),
  ],
  [
    "a trailer country alone",
    withChange((b) => {
      delete b.vehicle.trailer_registration;
    }),
  ],
  [
    "a trailer country with a null registration",
    withChange((b) => {
      b.vehicle.trailer_registration = null;
    }),
  ],
  [
    "a null trailer country with a registration",
    withChange((b) => {
      b.vehicle.trailer_country = null;
    }),
  ],
  [
    "a null trailer registration alone",
    withChange((b) => {
      delete b.vehicle.trailer_country;
      b.vehicle.trailer_registration = null;
    }),
  ],
  [
    "no trailer",
    withChange((b) => {
      delete b.vehicle.trailer_country;
      delete b.vehicle.trailer_registration;
    }),
  ],
  [
    "a foreign tax id of 32 characters and separators",
    withChange((b) => {
      b.carrier.tax_id = `-${"a1 ".repeat(16)}-`;
    }),
  ],
  [
    "a foreign tax id of 33 characters",
    withChange((b) => {
      b.carrier.tax_id = "A".repeat(33);
    }),
  ],
  [
    "a tax id of separators only",
    withChange((b) => {
      b.carrier.tax_id = " - ";
    }),
  ],
  [
    "a foreign plate of 21 characters",
    withChange((b) => {
      b.vehicle.country = "FR";
      b.vehicle.registration = `${"AB".repeat(10)}C`;
    }),
  ],
  [
    "a foreign plate of 2 characters",
    withChange((b) => {
      b.vehicle.country = "fr";
      b.vehicle.registration = "A-b";
    }),
  ],
  [
    "a foreign plate of 3 characters",
    withChange((b) => {
      b.vehicle.country = "FR";
      b.vehicle.registration = "a 1-C";
    }),
  ],
  [
    "a foreign trailer plate of 2 characters",
    withChange((b) => {
      b.vehicle.trailer_country = "PT";
      b.vehicle.trailer_registration = "R1";
    }),
  ],
  [
    "a Spanish plate of 2 characters (an old provincial series)",
    withChange((b) => {
      b.vehicle.country = "es";
      b.vehicle.registration = "M-1";
    }),
  ],
  [
    "a name with a control character",
    withChange((b) => {
      b.shipper.name = "A\u0001B";
    }),
  ],
  [
    "a name with DEL",
    withChange((b) => {
      b.shipper.name = "A\u007fB";
    }),
  ],
  [
    "a name with NEL (C1)",
    withChange((b) => {
      b.shipper.name = "A\u0085B";
    }),
  ],
  [
    "a name with a private-use character",
    withChange((b) => {
      b.shipper.name = "A\ue000";
    }),
  ],
  [
    "a name with an unpaired surrogate",
    withChange((b) => {
      b.shipper.name = "A\ud800";
    }),
  ],
  [
    "observations with tabs and line breaks",
    withChange((b) => {
      b.observations = "a\tb\r\nc\n";
    }),
  ],
  [
    "a name of 255 astral characters",
    withChange((b) => {
      b.shipper.name = "😀".repeat(255);
    }),
  ],
  [
    "a name of 256 characters",
    withChange((b) => {
      b.shipper.name = "a".repeat(256);
    }),
  ],
  [
    "a reference with a dot",
    withChange((b) => {
      b.reference = "A.1";
    }),
  ],
];

describe("the document's request schemas", () => {
  it.each(BODIES)("agree with the service on %s", (_, body) => {
    expect(documentAccepts("DocumentRequest", body)).toBe(
      documentRequestSchema.safeParse(body).success,
    );
  });

  it.each([
    ["a reason with NEL", "a\u0085b"],
    ["a reason with a private-use character", "a\ue000"],
    ["a reason with a control character", "a\u0001"],
    ["a reason with an unpaired surrogate", "a\udc00"],
  ])("agree with the service on a deletion: %s", (_, reason) => {
    const body = {
      reason,
      confirm_not_delivered: true,
      confirm_not_used: true,
    };
    expect(documentAccepts("DeleteRequest", body)).toBe(
      deleteRequestSchema.safeParse(body).success,
    );
  });
});

describe("the decimal pattern, written without a lookahead", () => {
  // docs/api.md, Goods, verbatim.
  const SPEC = /^(?!0+(?:\.0+)?$)(?:0|[1-9][0-9]{0,14})(?:\.[0-9]{1,6})?$/;

  it("accepts exactly what the contract's pattern accepts", () => {
    const digitsAndPoints = fc.string({
      unit: fc.constantFrom("0", "0", "0", "1", "9", "."),
      maxLength: 24,
    });
    fc.assert(
      fc.property(digitsAndPoints, (value) => {
        expect(positiveDecimal.safeParse(value).success).toBe(SPEC.test(value));
      }),
      { numRuns: 20_000 },
    );
  });
});
