import bidiFactory from "bidi-js";
import { describe, expect, it } from "vitest";
import { visualPieces } from "../../src/pdf/bidi";

const bidi = bidiFactory();

/** Bidi classes that raise a level above 0 in a left-to-right line, alone or over what follows them. */
const RAISING = new Set([
  ...["R", "AL", "AN"],
  ...["LRE", "RLE", "LRO", "RLO", "LRI", "RLI", "FSI"],
]);

describe("visualPieces", () => {
  it("gives a line with any right-to-left letter, Arabic number or opening embedding, override or isolate the levels of the Unicode algorithm", () => {
    let checked = 0;
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
      const character = String.fromCodePoint(codePoint);
      if (!RAISING.has(bidi.getBidiCharTypeName(character))) continue;
      const units = [character, "a", "1"].map((text) => ({ text, font: "f" }));
      const { levels } = bidi.getEmbeddingLevels(`${character}a1`, "ltr");
      const offsets = [0, character.length, character.length + 1];
      const printed = new Map(
        visualPieces(units, (unit) => unit).flatMap((piece) =>
          piece.units.map((unit) => [unit, piece.level] as const),
        ),
      );
      const got = units.map((unit) => printed.get(unit));
      const expected = offsets.map((offset) => levels[offset]);
      if (got.join() !== expected.join()) {
        expect({ codePoint: codePoint.toString(16), got }).toEqual({
          codePoint: codePoint.toString(16),
          got: expected,
        });
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(5000);
  });
});
