import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RequestBody } from "../../fixtures/requests";
import { documentRequestSchema } from "../../src/schemas/document-request";
import { errorsOf } from "../helpers/validation";

// Valid bodies in all their variety: optional parts present, absent or null,
// codes in any case, ids with spaces and hyphens, weights as text or numbers.

const DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE";
const CONSONANTS = "BCDFGHJKLMNPRSTVWXYZ";

const printable = (min: number, max: number) =>
  fc
    .string({
      unit: fc.constantFrom(
        ..."abcñÑçÇàéíóúüŁłŞșțĂΕλληνικάМосква 0123456789.,-'/()&".split(""),
        ..."株式会社한국مرحباשלום✓→".split(""),
        "😀",
      ),
      minLength: min,
      maxLength: max,
    })
    .filter((value) => [...value].length >= min);

const anyCase = (code: string) =>
  fc.constantFrom(
    code,
    code.toLowerCase(),
    `${code[0]}${code[1]?.toLowerCase()}`,
  );

const withSeparators = (id: string) =>
  fc.constantFrom(
    id,
    id.toLowerCase(),
    `${id.slice(0, 4)}-${id.slice(4)}`,
    `${id.slice(0, 2)} ${id.slice(2)}`,
  );

const dni = fc
  .integer({ min: 0, max: 99_999_999 })
  .map((n) => `${String(n).padStart(8, "0")}${DNI_LETTERS[n % 23]}`)
  .chain(withSeparators);

const foreignTaxId = fc
  .stringMatching(/^[A-Z0-9]{1,32}$/)
  .chain(withSeparators)
  .filter((id) => id.replace(/[ -]/g, "").length <= 32);

const plateOf = (prefix: string) =>
  fc
    .tuple(
      fc.integer({ min: 0, max: 9999 }),
      fc.array(fc.constantFrom(...CONSONANTS.split("")), {
        minLength: 3,
        maxLength: 3,
      }),
    )
    .map(
      ([n, letters]) =>
        `${prefix}${String(n).padStart(4, "0")}${letters.join("")}`,
    )
    .chain(withSeparators);

const address = fc.record({
  street: printable(1, 40),
  postal_code: fc.stringMatching(/^[0-9]{5}$/),
  city: printable(1, 30),
  country: anyCase("ES"),
});

const party = fc.oneof(
  fc.record({
    name: printable(1, 60),
    tax_country: anyCase("ES"),
    tax_id: dni,
  }),
  fc.record({
    name: printable(1, 60),
    tax_country: anyCase("PL"),
    tax_id: foreignTaxId,
  }),
);

const location = fc.record(
  {
    place: printable(1, 60),
    street: fc.option(printable(1, 40), { nil: null }),
    postal_code: fc.option(fc.stringMatching(/^[0-9]{5}$/), { nil: null }),
    city: printable(1, 30),
    country: anyCase("ES"),
  },
  { requiredKeys: ["place", "city", "country"] },
);

const weight = fc.oneof(
  fc.integer({ min: 1, max: 10_000_000 }).map((grams) => grams / 1000),
  fc.stringMatching(/^[1-9][0-9]{0,14}(\.[0-9]{1,6})?$/),
);

const goods = fc.oneof(
  fc.record({ description: printable(1, 200), weight_kg: weight }),
  fc.record({
    description: printable(1, 200),
    alternative_measure: fc.record({
      value: fc.stringMatching(/^[1-9][0-9]{0,5}(\.[0-9]{1,6})?$/),
      unit: printable(1, 10),
    }),
  }),
);

const vehicle = fc.oneof(
  fc.record({ country: anyCase("ES"), registration: plateOf("") }),
  fc.record({
    country: anyCase("ES"),
    registration: plateOf("E"),
    trailer_country: anyCase("ES"),
    trailer_registration: plateOf("R"),
  }),
);

const validBody = fc.record(
  {
    transport_date: fc
      .date({
        min: new Date("2000-01-01"),
        max: new Date("2099-12-31"),
        noInvalidDate: true,
      })
      .map((date) => date.toISOString().slice(0, 10)),
    shipper: fc.tuple(party, address).map(([p, a]) => ({ ...p, address: a })),
    carrier: fc
      .tuple(party, fc.option(address, { nil: null }))
      .map(([p, a]) => ({ ...p, address: a })),
    origin: location,
    destination: location,
    goods,
    vehicle,
    reference: fc.option(fc.stringMatching(/^[A-Za-z0-9-]{1,120}$/), {
      nil: null,
    }),
    special_authorization: fc.option(
      fc.record({
        number: printable(1, 20),
        issuer: fc.option(printable(1, 20), { nil: null }),
      }),
      { nil: null },
    ),
    observations: fc.option(printable(0, 300), { nil: null }),
    metadata: fc.option(
      fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 })),
      {
        nil: null,
      },
    ),
  },
  {
    requiredKeys: [
      "transport_date",
      "shipper",
      "carrier",
      "origin",
      "destination",
      "goods",
      "vehicle",
    ],
  },
);

// One way to break each field, and the path that must then be reported.
const BREAKERS: [string, (body: RequestBody) => void][] = [
  ["transport_date", (b) => (b.transport_date = "2026-02-30")],
  ["shipper.name", (b) => (b.shipper.name = "")],
  ["shipper.tax_id", (b) => (b.shipper.tax_id = "X".repeat(33))],
  [
    "shipper.address.postal_code",
    (b) => (b.shipper.address.postal_code = 28001),
  ],
  ["carrier.tax_country", (b) => (b.carrier.tax_country = "ESP")],
  ["origin.place", (b) => delete b.origin.place],
  ["origin.country", (b) => (b.origin.country = "PT")],
  ["destination.city", (b) => (b.destination.city = "c".repeat(256))],
  ["goods.description", (b) => (b.goods.description = null)],
  ["vehicle.registration", (b) => (b.vehicle.registration = "!!")],
  ["reference", (b) => (b.reference = "has space")],
  ["observations", (b) => (b.observations = "o".repeat(4001))],
  ["metadata", (b) => (b.metadata = [1])],
  ["special_authorization", (b) => (b.special_authorization = "AUT")],
  ["unexpected", (b) => (b.unexpected = true)],
];

describe("document request properties", () => {
  it("accepts every valid body and normalizes it idempotently", () => {
    fc.assert(
      fc.property(validBody, (body) => {
        const once = documentRequestSchema.safeParse(body);
        expect(errorsOf(documentRequestSchema, body)).toEqual([]);
        if (!once.success) return;
        expect(documentRequestSchema.parse(once.data)).toEqual(once.data);
      }),
      { numRuns: 300 },
    );
  });

  it("reports exactly the path of the one field that was broken", () => {
    fc.assert(
      fc.property(
        validBody,
        fc.constantFrom(...BREAKERS),
        (body, [field, breakIt]) => {
          const broken = structuredClone(body) as RequestBody;
          breakIt(broken);
          const fields = errorsOf(documentRequestSchema, broken).map(
            (e) => e.field,
          );
          expect(fields).toEqual([field]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("never throws on arbitrary JSON: it validates or lists errors", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const errors = errorsOf(documentRequestSchema, value);
        for (const error of errors) {
          expect(typeof error.code).toBe("string");
          expect(typeof error.message).toBe("string");
        }
      }),
      { numRuns: 500 },
    );
  });
});
