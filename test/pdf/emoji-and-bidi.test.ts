import { readFile } from "node:fs/promises";
import { PDFDocument, rgb } from "@cantoo/pdf-lib";
import { describe, expect, it } from "vitest";
import { cutFallbackFont } from "../../scripts/lib/fallback-font-files";
import { fallbackFamiliesFor } from "../../src/font-coverage/coverage";
import { embedDocumentFonts } from "../../src/pdf/fonts";
import { drawText, finishText } from "../../src/pdf/stream-text";
import { type GrayImage, pageTexts, renderPage } from "./pdf-tools";

const SIZE = 20;
const DPI = 200;
const LEFT = 10;

/** One line drawn as documents draw text, with the fallback fonts it needs. */
async function linePdf(text: string): Promise<Uint8Array> {
  const files = new Map(
    await Promise.all(
      [...fallbackFamiliesFor([text])].map(
        async (family) =>
          [
            family,
            new Uint8Array(await readFile(cutFallbackFont(family))),
          ] as const,
      ),
    ),
  );
  const pdf = await PDFDocument.create();
  const { regular, fallbacks } = await embedDocumentFonts(pdf, files);
  const page = pdf.addPage([320, 50]);
  const style = { font: regular, fallbacks, size: SIZE, color: rgb(0, 0, 0) };
  drawText(page, text, { ...style, leading: SIZE * 1.25 }, LEFT, 12);
  finishText(page);
  return pdf.save();
}

const lineImage = async (text: string): Promise<GrayImage> =>
  renderPage(await linePdf(text), DPI);

const lineText = async (text: string): Promise<string> =>
  (await pageTexts(await linePdf(text))).join("").trim();

/** The first and last columns with ink. */
function inkedColumns(image: GrayImage): [number, number] {
  let first = image.width;
  let last = -1;
  image.pixels.forEach((level, index) => {
    if (level >= 128) return;
    const column = index % image.width;
    first = Math.min(first, column);
    last = Math.max(last, column);
  });
  return [first, last];
}

const inkedWidthInPoints = (image: GrayImage): number => {
  const [first, last] = inkedColumns(image);
  return ((last - first + 1) * 72) / DPI;
};

/** Pixels of columns `first` to `last` whose grey levels differ by more than a quarter. */
function differingPixels(
  a: GrayImage,
  b: GrayImage,
  [first, last]: [number, number] = [0, a.width - 1],
): number {
  let count = 0;
  a.pixels.forEach((level, index) => {
    const column = index % a.width;
    if (column < first || column > last) return;
    if (Math.abs(level - (b.pixels[index] ?? 255)) > 64) count++;
  });
  return count;
}

const SEQUENCES = {
  "skin tone": "👍🏽",
  "ZWJ family": "👨‍👩‍👧",
  flag: "🇪🇸",
  keycap: "1️⃣",
  "subdivision flag": "🏴󠁧󠁢󠁳󠁣󠁴󠁿",
};

describe("emoji sequences", () => {
  it.each(Object.entries(SEQUENCES))(
    "prints a %s sequence as one glyph, extracted whole",
    async (_, sequence) => {
      // One glyph, not its parts side by side nor a box after it.
      expect(inkedWidthInPoints(await lineImage(sequence))).toBeLessThan(
        SIZE * 1.3,
      );
      expect(await lineText(sequence)).toBe(sequence);
    },
  );

  it("prints a skin-toned thumb as the emoji font's thumb, with no box for the tone", async () => {
    // The emoji presentation of the thumb (U+FE0F): the same font's glyph.
    expect(
      differingPixels(await lineImage("👍🏽"), await lineImage("👍\uFE0F")),
    ).toBe(0);
  });

  it("prints a sequence that no font draws as its base emoji alone, extracted whole", async () => {
    // Thumbs up ZWJ rocket: no emoji font has it.
    const unknown = "👍\u200D🚀";
    expect(
      differingPixels(await lineImage(unknown), await lineImage("👍")),
    ).toBe(0);
    expect(await lineText(unknown)).toBe(unknown);
  });

  it("prints emoji among words, each sequence once", async () => {
    const text = "Cajas 📦 de 🇪🇸 y 👍🏽";
    expect(await lineText(text)).toBe(text);
  });
});

describe("numbers in right-to-left text", () => {
  it.each([
    ["مرحبا 123", "123"],
    ["שלום 2026", "2026"],
  ])(
    "prints %s with the number on the left, as the Unicode algorithm orders it, extracted in logical order",
    async (text, number) => {
      const line = await lineImage(text);
      const alone = await lineImage(number);
      const columns = inkedColumns(alone);
      // The number alone, drawn from the line's start, is what the line shows there.
      expect(differingPixels(line, alone, columns)).toBeLessThan(5);
      expect(inkedColumns(line)[1]).toBeGreaterThan(columns[1] + SIZE);
      expect((await lineText(text)).replace(/\s+/g, " ")).toBe(text);
    },
  );

  it("mirrors brackets in right-to-left text, extracted as typed", async () => {
    const text = "שלום (חברה)";
    const line = await lineImage(text);
    const opening = await lineImage("(");
    // Right to left, the closing bracket comes first: it prints as `(`.
    expect(differingPixels(line, opening, inkedColumns(opening))).toBeLessThan(
      5,
    );
    // MuPDF sets the brackets apart with spaces of its own.
    expect((await lineText(text)).replace(/\s+/g, "")).toBe(
      text.replace(/\s+/g, ""),
    );
  });
});
