import { describe, expect, it } from "vitest";
import { normalizeIdentifier } from "../../../src/schemas/validators/identifier";
import { isValidTaxId } from "../../../src/schemas/validators/tax-id";

// Control characters below were computed with an independent script:
// DNI letter = "TRWAGMYFPDXBNJZSQVHLCKE"[number % 23]; NIE with X=0, Y=1, Z=2;
// entity control digit by the CIF algorithm, control letter "JABCDEFGHI"[digit].

// Each row: [case, tax country, raw input, expected validity].
type Row = [kind: string, country: string, raw: string, valid: boolean];

const spanishPersons: Row[] = [
  ["DNI", "ES", "12345678Z", true],
  ["DNI", "ES", "00000000T", true],
  ["DNI lowercase", "ES", "87654321x", true],
  ["DNI hyphen", "ES", "12345678-Z", true],
  ["DNI spaces", "ES", " 1234 5678 Z ", true],
  ["DNI wrong letter", "ES", "12345678A", false],
  ["DNI 7 digits", "ES", "1234567Z", false],
  ["DNI 9 digits", "ES", "123456789Z", false],
  ["DNI no letter", "ES", "12345678", false],
  ["DNI tab kept", "ES", "12345678\tZ", false],
  ["DNI dots kept", "ES", "12.345.678-Z", false],
  ["NIE X", "ES", "X1234567L", true],
  ["NIE X zeros", "ES", "X0000000T", true],
  ["NIE Y lowercase", "ES", "y1234567x", true],
  ["NIE Z hyphens", "ES", "Z-1234567-R", true],
  ["NIE Z", "ES", "Z7654321H", true],
  ["NIE wrong letter", "ES", "X1234567T", false],
  ["NIE X letter on Y", "ES", "Y1234567L", false],
  ["NIE 8 digits", "ES", "Z12345678R", false],
  ["NIE 6 digits", "ES", "X123456L", false],
];

const spanishEntities: Row[] = [
  ["digit control A", "ES", "A58818501", true],
  ["digit control B", "ES", "B12345674", true],
  ["digit control E", "ES", "E76543214", true],
  ["digit control H", "ES", "H28015865", true],
  ["digit control 0", "ES", "B00000000", true],
  ["A lowercase spaced", "ES", "a 5881850 1", true],
  ["B hyphens", "ES", "b-1234567-4", true],
  ["A with letter", "ES", "A5881850A", false],
  ["B with letter", "ES", "B1234567D", false],
  ["A wrong digit", "ES", "A58818502", false],
  ["letter control N", "ES", "N0012345E", true],
  ["letter control P", "ES", "P2800000H", true],
  ["letter control Q", "ES", "Q2826000H", true],
  ["letter control R", "ES", "R5000000I", true],
  ["letter control S", "ES", "S2800001F", true],
  ["letter control W", "ES", "w1234567d", true],
  ["Q with digit", "ES", "Q28260008", false],
  ["W with digit", "ES", "W12345674", false],
  ["P wrong letter", "ES", "P2800000G", false],
  ["either C digit", "ES", "C12345674", true],
  ["either C letter", "ES", "C1234567D", true],
  ["either D digit", "ES", "D76543214", true],
  ["either F letter", "ES", "F2801586E", true],
  ["either G digit", "ES", "G28000008", true],
  ["either J letter", "ES", "J0012345E", true],
  ["either U digit", "ES", "U50000009", true],
  ["either V letter", "ES", "V2826000H", true],
  ["V wrong letter", "ES", "V2826000G", false],
  ["G wrong digit", "ES", "G28000007", false],
  ["J letter out of JA..I", "ES", "J0012345K", false],
  ["first letter I", "ES", "I12345674", false],
  ["first letter T", "ES", "T12345674", false],
  ["entity 8 digits", "ES", "B123456745", false],
  ["entity 6 digits", "ES", "B1234564", false],
];

const spanishSpecial: Row[] = [
  ["K digits", "ES", "K1234567L", true],
  ["L no control check", "ES", "L1234567A", true],
  ["M any final letter", "ES", "M1234567Z", true],
  ["K alphanumeric", "ES", "KABC1234Z", true],
  ["M lowercase", "ES", "m-1234567-z", true],
  ["K final digit", "ES", "K12345678", false],
  ["K 6 middle", "ES", "K123456L", false],
  ["L 8 middle", "ES", "L12345678L", false],
  ["M with Ñ", "ES", "MÑ234567L", false],
  ["empty", "ES", "", false],
];

const foreign: Row[] = [
  ["German VAT", "DE", "DE123456789", true],
  ["French spaced", "FR", "FR 12 345678901", true],
  ["British hyphens", "GB", "gb-123-456-789", true],
  ["one character", "PT", "5", true],
  ["32 characters", "US", "A".repeat(32), true],
  ["33 characters", "US", "A".repeat(33), false],
  ["no control check", "PT", "12345678A", true],
  ["slash", "DE", "DE123/456", false],
  ["dot", "IT", "IT123.456", false],
  ["accented", "FR", "ÉCOLE1", false],
  ["ß not expanded", "DE", "straße1", false],
  ["empty", "DE", "", false],
];

describe("isValidTaxId after normalizeIdentifier", () => {
  const rows = [
    ...spanishPersons,
    ...spanishEntities,
    ...spanishSpecial,
    ...foreign,
  ];
  it.each(rows)("%s: %s %j is valid: %s", (_kind, country, raw, valid) => {
    expect(isValidTaxId(country, normalizeIdentifier(raw))).toBe(valid);
  });
});

describe("normalizeIdentifier", () => {
  it.each([
    { raw: " x-1234567-l ", normalized: "X1234567L" },
    { raw: "b 1234-5674", normalized: "B12345674" },
    { raw: "12.345.678-z", normalized: "12.345.678Z" },
    { raw: "a\tb", normalized: "A\tB" },
    { raw: "straße", normalized: "STRAßE" },
    { raw: "---", normalized: "" },
  ])("normalizes $raw to $normalized", ({ raw, normalized }) => {
    expect(normalizeIdentifier(raw)).toBe(normalized);
  });
});
