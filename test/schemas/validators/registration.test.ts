import { describe, expect, it } from "vitest";
import { normalizeIdentifier } from "../../../src/schemas/validators/identifier";
import {
  isValidRegistration,
  type RegistrationKind,
} from "../../../src/schemas/validators/registration";

// Each row: [case, country, raw input, kind, expected validity].
type Row = [
  series: string,
  country: string,
  raw: string,
  kind: RegistrationKind,
  valid: boolean,
];

const spanishCurrent: Row[] = [
  ["current", "ES", "1234BCD", "vehicle", true],
  ["current first", "ES", "0000BBB", "vehicle", true],
  ["current last", "ES", "9999ZZZ", "vehicle", true],
  ["current lowercase spaced", "ES", "1234 bcd", "vehicle", true],
  ["current hyphen", "ES", "1234-BCD", "vehicle", true],
  ["current vowel A", "ES", "1234ABC", "vehicle", false],
  ["current vowel E", "ES", "1234BCE", "vehicle", false],
  ["current vowel O", "ES", "1234BOC", "vehicle", false],
  ["current Ñ", "ES", "1234BÑD", "vehicle", false],
  ["current Q", "ES", "1234 qbc", "vehicle", false],
  ["current 3 digits", "ES", "123BCD", "vehicle", false],
  ["current 5 digits", "ES", "12345BCD", "vehicle", false],
  ["current 2 letters", "ES", "1234BC", "vehicle", false],
  ["current 4 letters", "ES", "1234BCDF", "vehicle", false],
  ["current tab kept", "ES", "1234\tBCD", "vehicle", false],
];

const spanishOldProvincial: Row[] = [
  ["Madrid two letters", "ES", "M-1234-AB", "vehicle", true],
  ["Barcelona", "ES", "B 1234 CD", "vehicle", true],
  ["Las Palmas one letter", "ES", "GC1234A", "vehicle", true],
  ["Malaga lowercase vowels", "ES", "ma-0012-ae", "vehicle", true],
  ["Palma numeric 6 digits", "ES", "PM-123456", "vehicle", true],
  ["Madrid numeric 6 digits", "ES", "M123456", "vehicle", true],
  ["Donostia numeric 1 digit", "ES", "SS-1", "vehicle", true],
  ["Melilla numeric", "ES", "ML1234", "vehicle", true],
  ["Baleares IB", "ES", "IB-1234-BZ", "vehicle", true],
  ["Gerona GE", "ES", "GE1234AB", "vehicle", true],
  ["Girona GI", "ES", "GI1234AB", "vehicle", true],
  ["Orense OR", "ES", "OR1234A", "vehicle", true],
  ["Ourense OU", "ES", "OU1234A", "vehicle", true],
  ["Asturias O", "ES", "O-9999-ZZ", "vehicle", true],
  ["unknown code XX", "ES", "XX1234AB", "vehicle", false],
  ["never issued LR", "ES", "LR1234A", "vehicle", false],
  ["three-letter code", "ES", "ALB1234", "vehicle", false],
  ["numeric 7 digits", "ES", "M1234567", "vehicle", false],
  ["numeric leading zero", "ES", "M012345", "vehicle", false],
  ["letters after 3 digits", "ES", "M123AB", "vehicle", false],
  ["letters after 5 digits", "ES", "M12345A", "vehicle", false],
  ["three letters", "ES", "M1234ABC", "vehicle", false],
  ["code only", "ES", "M", "vehicle", false],
  ["Ñ letter", "ES", "M1234AÑ", "vehicle", false],
];

const spanishSpecialE: Row[] = [
  ["E", "ES", "E1234BCD", "vehicle", true],
  ["E lowercase hyphens", "ES", "e-1234-bcd", "vehicle", true],
  ["E vowel", "ES", "E1234ABC", "vehicle", false],
  ["E 3 digits", "ES", "E123BCD", "vehicle", false],
  ["R as vehicle", "ES", "R1234BCD", "vehicle", false],
];

const spanishTrailers: Row[] = [
  ["R", "ES", "R1234BCD", "trailer", true],
  ["R lowercase hyphens", "ES", "r-1234-bcd", "trailer", true],
  ["R vowel", "ES", "R1234ABC", "trailer", false],
  ["R Q", "ES", "R1234BQD", "trailer", false],
  ["R 3 digits", "ES", "R123BCD", "trailer", false],
  ["R 4 letters", "ES", "R1234BCDF", "trailer", false],
  ["current as trailer", "ES", "1234BCD", "trailer", false],
  ["provincial as trailer", "ES", "M1234AB", "trailer", false],
  ["E as trailer", "ES", "E1234BCD", "trailer", false],
];

const foreign: Row[] = [
  ["French", "FR", "AB-123-CD", "vehicle", true],
  ["German", "DE", "b-mw 1234", "vehicle", true],
  ["Polish trailer", "PL", "WA 12345", "trailer", true],
  ["Portuguese trailer, no R", "PT", "L-123456", "trailer", true],
  ["length 3", "IT", "A1B", "vehicle", true],
  ["length 20", "NL", "AB".repeat(10), "vehicle", true],
  ["length 2", "IT", "A-1", "vehicle", false],
  ["length 21", "NL", "1".repeat(21), "trailer", false],
  ["dot", "FR", "AB.123.CD", "vehicle", false],
  ["accented", "DE", "MÜ1234", "vehicle", false],
  ["empty", "FR", "", "vehicle", false],
];

describe("isValidRegistration after normalizeIdentifier", () => {
  it.each([
    ...spanishCurrent,
    ...spanishOldProvincial,
    ...spanishSpecialE,
    ...spanishTrailers,
    ...foreign,
  ])("%s: %s %j as %s is valid: %s", (_series, country, raw, kind, valid) => {
    const registration = normalizeIdentifier(raw);
    expect(isValidRegistration(country, registration, kind)).toBe(valid);
  });
});

describe("normalizeIdentifier", () => {
  it.each([
    { raw: " m-1234-ab ", normalized: "M1234AB" },
    { raw: "1234 bcd", normalized: "1234BCD" },
    { raw: "ab.123", normalized: "AB.123" },
    { raw: "1234\tbcd", normalized: "1234\tBCD" },
    { raw: "mü 12", normalized: "Mü12" },
  ])("normalizes $raw to $normalized", ({ raw, normalized }) => {
    expect(normalizeIdentifier(raw)).toBe(normalized);
  });
});
