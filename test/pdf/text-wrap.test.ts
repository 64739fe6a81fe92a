import { describe, expect, it } from "vitest";
import { wrapText } from "../../src/pdf/text-wrap";

// One unit a character, so that widths are easy to count.
const width = (text: string) => [...text].length;

describe("wrapText", () => {
  it("breaks at the last space that fits", () => {
    expect(wrapText("Aceite de oliva virgen extra", 12, width)).toEqual([
      "Aceite de",
      "oliva virgen",
      "extra",
    ]);
  });

  it("starts a new line at each line feed and keeps empty lines", () => {
    expect(wrapText("Muelle 3\n\nAvisar", 20, width)).toEqual([
      "Muelle 3",
      "",
      "Avisar",
    ]);
  });

  it("cuts a word wider than the line, by characters", () => {
    expect(wrapText("ref ŁÓDŹ-ŁÓDŹ-ŁÓDŹ fin", 6, width)).toEqual([
      "ref",
      "ŁÓDŹ-Ł",
      "ÓDŹ-ŁÓ",
      "DŹ fin",
    ]);
  });

  it("never cuts an emoji sequence or a letter from its marks", () => {
    const family = "👨‍👩‍👧";
    expect(wrapText(family.repeat(3), 7, width)).toEqual([
      family,
      family,
      family,
    ]);
    expect(wrapText("e\u0301e\u0301e\u0301", 3, width)).toEqual([
      "e\u0301",
      "e\u0301",
      "e\u0301",
    ]);
  });

  it("never makes a line wider than allowed and loses no word", () => {
    const text =
      "Entrega en horario de mañana; contactar con el jefe de muelle antes de descargar los palés";
    for (const maxWidth of [5, 10, 17, 40]) {
      const lines = wrapText(text, maxWidth, width);
      for (const line of lines) {
        expect(width(line)).toBeLessThanOrEqual(maxWidth);
      }
      expect(lines.join(" ").split(/ +/).join("")).toBe(
        text.split(" ").join(""),
      );
    }
  });
});
