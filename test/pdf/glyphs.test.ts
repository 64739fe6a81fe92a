import { readFile } from "node:fs/promises";
import * as fontkit from "@cantoo/fontkit";
import { PDFDocument, type PDFFont } from "@cantoo/pdf-lib";
import { describe, expect, it } from "vitest";
import { ORIGINAL_FONTS } from "../../scripts/lib/font-files";
import { embedDocumentFonts, printable } from "../../src/pdf/fonts";
import { type GrayImage, renderPage } from "./pdf-tools";

const range = (first: number, last: number, skip: number[] = []): string =>
  Array.from({ length: last - first + 1 }, (_, i) => first + i)
    .filter((codePoint) => !skip.includes(codePoint))
    .map((codePoint) => String.fromCodePoint(codePoint))
    .join("");

/** Every character class that names, addresses and labels use. */
const CHARACTER_CLASSES = [
  "Español: ¿Qué? ¡Sí! cigüeña ÁÉÍÓÚÜÑ áéíóúüñ",
  "Català: col·lecció, paral·lel, L·L, ÀÈÉÍÏÒÓÚÜÇ àèéíïòóúüç",
  "Euskara: Gasteizko Udala, Donostia, Iruñea, txakolina",
  "Galego: Xunta, A Coruña, Ourense, ÁÉÍÓÚÑ",
  "Português: ã õ ç Ã Õ Ç â ê ô Â Ê Ô à Às",
  "Français: œ Œ æ Æ ç Ç ë Ë ï Ï î ô û ù ÿ Ÿ è ê «»",
  "Polski: Ą ą Ć ć Ę ę Ł ł Ń ń Ó ó Ś ś Ź ź Ż ż Łódź",
  "Română: Ș ș Ț ț Ă ă Â â Î î Ștefan",
  range(0x0391, 0x03a9, [0x03a2]),
  `${range(0x03b1, 0x03c9)} άέήίόύώϊϋΐΰ Ελλάδα`,
  `${range(0x0410, 0x042f)} Ё`,
  `${range(0x0430, 0x044f)} ё Москва`,
  "Українська: Є є І і Ї ї Ґ ґ",
  range(0x00c0, 0x00ff, [0x00d7, 0x00f7]),
  range(0x0100, 0x017f),
  "0123456789 ½ ¼ ¾ ° º ª № § © ® ™ € $ £ ¥ %",
  ".,;:!?¡¿'\"‘’“”«»‹›-–—…·•()[]{}/\\@#&*+=<>_|~",
];

const SIZE = 11;
const DPI = 100;

/** A page that prints every class in regular, then in bold. */
async function specimen(
  fonts: { regular: PDFFont; bold: PDFFont },
  pdf: PDFDocument,
  prepare: (text: string) => string,
): Promise<Uint8Array> {
  const page = pdf.addPage([595.28, 841.89]);
  let y = 800;
  for (const font of [fonts.regular, fonts.bold]) {
    for (const line of CHARACTER_CLASSES) {
      page.drawText(prepare(line), { x: 30, y, size: SIZE, font });
      y -= SIZE * 1.6;
    }
  }
  return pdf.save();
}

/** The page with the committed cut fonts, subset at render time, as documents print. */
async function withDocumentFonts(
  prepare: (text: string) => string = printable,
): Promise<GrayImage> {
  const pdf = await PDFDocument.create();
  return renderPage(
    await specimen(await embedDocumentFonts(pdf), pdf, prepare),
    DPI,
  );
}

/** The page with the full original fonts, embedded whole. */
async function withOriginalFonts(): Promise<GrayImage> {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const whole = async (path: string) =>
    pdf.embedFont(await readFile(path), { subset: false });
  const regular = await whole(ORIGINAL_FONTS.regular);
  const bold = await whole(ORIGINAL_FONTS.bold);
  return renderPage(
    await specimen({ regular, bold }, pdf, (text) => text),
    DPI,
  );
}

/** Pixels whose grey level differs by more than a quarter of the scale. */
function differingPixels(a: GrayImage, b: GrayImage): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let count = 0;
  a.pixels.forEach((level, index) => {
    if (Math.abs(level - (b.pixels[index] ?? 255)) > 64) count++;
  });
  return count;
}

const inkOf = (image: GrayImage): number =>
  image.pixels.filter((level) => level < 128).length;

describe("the cut and subset document font", () => {
  it("draws every character class exactly as the full original font does", async () => {
    const original = await withOriginalFonts();
    const documentFonts = await withDocumentFonts();

    expect(CHARACTER_CLASSES.map(printable)).toEqual(CHARACTER_CLASSES);
    expect(inkOf(original)).toBeGreaterThan(20_000);
    expect(differingPixels(documentFonts, original)).toBeLessThan(20);
  });

  it("would show a glyph that went missing", async () => {
    const original = await withOriginalFonts();
    // As if the cut had lost `ł`: the fallback prints instead.
    const lost = await withDocumentFonts((text) =>
      printable(text).replaceAll("ł", "?"),
    );

    expect(differingPixels(lost, original)).toBeGreaterThan(20);
  });
});
