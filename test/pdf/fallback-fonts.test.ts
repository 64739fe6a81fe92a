import { readFile } from "node:fs/promises";
import { PDFDict, PDFDocument, PDFName, rgb } from "@cantoo/pdf-lib";
import { describe, expect, it } from "vitest";
import { FULL_DOCUMENT, ISSUE } from "../../fixtures/documents";
import { cutFallbackFont } from "../../scripts/lib/fallback-font-files";
import type {
  DocumentPdfInput,
  FontFiles,
} from "../../src/domain/documents/render-port";
import { fallbackFamiliesFor } from "../../src/font-coverage/coverage";
import { embedDocumentFonts } from "../../src/pdf/fonts";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import { widthIn } from "../../src/pdf/styles";
import type { DocumentData } from "../../src/schemas/document-request";
import { checkPdfStructure, pageTexts, squeezeSpaces } from "./pdf-tools";

/** Names and texts in every writing people send, one per printed field. */
const WORLD_DOCUMENT: DocumentData = {
  ...FULL_DOCUMENT,
  shipper: { ...FULL_DOCUMENT.shipper, name: "Cerámicas 株式会社" },
  carrier: { ...FULL_DOCUMENT.carrier, name: "Łódź Ștefan Ελλάδα Москва" },
  goods: {
    ...FULL_DOCUMENT.goods,
    description: "ひらがな カタカナ 한국어 상품 ™ № ✓ → 😀",
  },
  observations: "Entregar a مرحبا 42 y a שלום, puerta 7.",
};

const input = (data: DocumentData, fallbackFonts: FontFiles = new Map()) =>
  ({
    data,
    ...ISSUE,
    locale: "es",
    environment: "live",
    fallbackFonts,
  }) satisfies DocumentPdfInput;

/** The fallback font files a document needs, as issuing loads them. */
async function fontsFor(data: DocumentData) {
  const families = fallbackFamiliesFor(textsIn(data));
  return new Map(
    await Promise.all(
      [...families].map(
        async (family) =>
          [
            family,
            new Uint8Array(await readFile(cutFallbackFont(family))),
          ] as const,
      ),
    ),
  );
}

function textsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value && typeof value === "object")
    return Object.values(value).flatMap(textsIn);
  return [];
}

/** The base font names of the fonts a PDF embeds. */
async function embeddedFonts(bytes: Uint8Array): Promise<string[]> {
  const pdf = await PDFDocument.load(bytes);
  const names: string[] = [];
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (
      object instanceof PDFDict &&
      object.get(PDFName.of("Type")) === PDFName.of("Font") &&
      object.get(PDFName.of("Subtype")) === PDFName.of("Type0")
    ) {
      // pdf-lib names each embedded font `/Name-1234`.
      names.push(
        String(object.get(PDFName.of("BaseFont"))).replace(/^\/|-\d+$/g, ""),
      );
    }
  }
  return names.sort();
}

// pdftotext marks right-to-left stretches with embedding controls of its own.
const withoutBidiControls = (text: string) =>
  text.replace(/[\u202a-\u202e\u2066-\u2069]/g, "");

describe("characters outside Latin, Greek and Cyrillic", () => {
  it("prints every character of the data with a real glyph, found again in the PDF's text", async () => {
    const { bytes } = await renderDocumentPdf(
      input(WORLD_DOCUMENT, await fontsFor(WORLD_DOCUMENT)),
    );
    await checkPdfStructure(bytes);
    const text = withoutBidiControls((await pageTexts(bytes)).join(" "));

    for (const field of textsIn(WORLD_DOCUMENT)) {
      for (const character of field.replace(/\s/g, "")) {
        expect(text, `${character} of ${field}`).toContain(character);
      }
    }
    // Nothing the reader could not read back: Arabic letters drawn as a body
    // and separate dots would extract their dots as U+FFFD.
    expect(text).not.toContain("\uFFFD");
    // Right-to-left words come back in logical order, numbers unreversed
    // (extractors place the spaces around them, and the comma after the
    // Hebrew word, as they like: MuPDF on its right-to-left side).
    expect(text.replace(/\s/g, "")).toMatch(
      /Entregaraمرحبا42ya(שלום,|,שלום)puerta7\./,
    );
    expect(squeezeSpaces(text)).toContain("Cerámicas 株式会社");
    expect(squeezeSpaces(text)).toContain(
      "ひらがな カタカナ 한국어 상품 ™ № ✓ → 😀",
    );
    expect(await embeddedFonts(bytes)).toEqual([
      "NotoEmoji-Regular",
      "NotoSans-Bold",
      "NotoSans-Regular",
      "NotoSansArabic-Regular",
      "NotoSansHebrew-Regular",
      "NotoSansKR-Regular",
      "NotoSansSC-Regular",
      "NotoSansSymbols2-Regular",
    ]);
  });

  it("prints scripts no other font has from the last-resort font, each character found again", async () => {
    const data: DocumentData = {
      ...FULL_DOCUMENT,
      shipper: { ...FULL_DOCUMENT.shipper, name: "नमस्ते สวัสดี" },
      carrier: { ...FULL_DOCUMENT.carrier, name: "Բարեւ გამარჯობა" },
      observations: "ሰላም, Madrid",
    };
    const { bytes } = await renderDocumentPdf(
      input(data, await fontsFor(data)),
    );
    await checkPdfStructure(bytes);
    const text = (await pageTexts(bytes)).join(" ");

    for (const word of ["नमस्ते", "สวัสดี", "Բարեւ", "გამარჯობა", "ሰላም"]) {
      for (const character of word) {
        expect(text, `${character} of ${word}`).toContain(character);
      }
    }
    expect(text).not.toContain("\uFFFD");
    expect(await embeddedFonts(bytes)).toEqual([
      "DecaLastResort",
      "NotoSans-Bold",
      "NotoSans-Regular",
    ]);
  });

  it("joins Arabic letters into their contextual forms", async () => {
    const fonts = await fontsFor(WORLD_DOCUMENT);
    const pdf = await PDFDocument.create();
    const { regular, fallbacks } = await embedDocumentFonts(pdf, fonts);
    const style = {
      font: regular,
      fallbacks,
      size: 10,
      color: rgb(0, 0, 0),
      leading: 13,
    };
    const word = "مرحبا";
    const isolated = [...word].reduce(
      (sum, letter) => sum + widthIn(letter, style),
      0,
    );

    // Joined letters are other glyphs than the isolated ones, of other widths.
    expect(Math.abs(widthIn(word, style) - isolated)).toBeGreaterThan(1);
  });

  it("embeds only Noto Sans in a document that needs no other font", async () => {
    const { bytes } = await renderDocumentPdf(input(FULL_DOCUMENT));

    expect(fallbackFamiliesFor(textsIn(FULL_DOCUMENT))).toEqual(new Set());
    expect(await embeddedFonts(bytes)).toEqual([
      "NotoSans-Bold",
      "NotoSans-Regular",
    ]);
  });

  it("never prints a character whose font was not given", async () => {
    await expect(renderDocumentPdf(input(WORLD_DOCUMENT))).rejects.toThrow(
      /fallback font was not given/,
    );
  });
});
