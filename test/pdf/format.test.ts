import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDate, formatMeasure, formatWeight } from "../../src/pdf/format";

describe("formatWeight", () => {
  it.each([
    ["12345.6785", "12.345,679 kg"],
    ["12345.678", "12.345,678 kg"],
    ["12.5", "12,5 kg"],
    ["7", "7 kg"],
    ["1000", "1.000 kg"],
    ["1000000", "1.000.000 kg"],
    ["0.1", "0,1 kg"],
    ["5.1204", "5,12 kg"],
    // Half up on the digits: as a double, 1.0005 is 1.000499999… and would round down.
    ["1.0005", "1,001 kg"],
    ["2.0004999", "2 kg"],
    ["999.9995", "1.000 kg"],
    ["0.0005", "0,001 kg"],
    // Beyond a double's precision.
    ["999999999999999.999999", "1.000.000.000.000.000 kg"],
    ["123456789012345.123456", "123.456.789.012.345,123 kg"],
  ])("prints %s kg as %s", (kilograms, printed) => {
    expect(formatWeight(kilograms)).toBe(printed);
  });

  it.each(["0.0004", "0.000001"])(
    "prints %s kg, positive but below a gram, as < 0,001 kg",
    (kilograms) => {
      expect(formatWeight(kilograms)).toBe("< 0,001 kg");
    },
  );

  it("rounds like exact decimal arithmetic, half up", () => {
    const weight = fc
      .tuple(
        fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }),
        fc.bigInt({ min: 0n, max: 10n ** 6n - 1n }),
      )
      .filter(([integer, micro]) => integer > 0n || micro >= 500n)
      .map(([integer, micro]) => ({
        text: `${integer}.${micro.toString().padStart(6, "0")}`,
        grams: (integer * 10n ** 6n + micro + 500n) / 1000n,
      }));
    fc.assert(
      fc.property(weight, ({ text, grams }) => {
        const expected = `${grams / 1000n},${(grams % 1000n).toString().padStart(3, "0")}`;
        const printed = formatWeight(text).replace(" kg", "");
        const [integer = "", fraction = ""] = printed.split(",");
        expect(
          `${integer.replaceAll(".", "")},${fraction.padEnd(3, "0")}`,
        ).toBe(expected);
      }),
    );
  });
});

describe("formatMeasure", () => {
  it("prints the value exactly, with separators, and the unit as given", () => {
    expect(formatMeasure("1234.567891", "m³")).toBe("1.234,567891 m³");
    expect(formatMeasure("35.5", "palés")).toBe("35,5 palés");
    expect(formatMeasure("0.000001", "t")).toBe("0,000001 t");
  });
});

describe("formatDate", () => {
  it("prints day, month and year as a Spanish reader writes them", () => {
    expect(formatDate("2026-11-21")).toBe("21/11/2026");
    expect(formatDate("2027-01-05")).toBe("05/01/2027");
  });
});
