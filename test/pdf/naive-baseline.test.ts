import { describe, expect, it } from "vitest";
import { loadNaiveRenderer } from "../../bench/naive/render-document";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import { DOCUMENT_LOCALES } from "../../src/schemas/document-locale";
import { FULL_DOCUMENT, ISSUE, LONG_DOCUMENT } from "../fixtures/documents";
import { type GrayImage, renderPage } from "./pdf-tools";

const DPI = 100;
const POINT = DPI / 72;

/** The QR code's square (see document-content.ts): its mask may differ, its content not. */
const QR_BOX = {
  left: 595.28 - 40 - 120,
  right: 595.28 - 40,
  top: 40 + 46 + 10,
  bottom: 40 + 46 + 10 + 120,
};

function differingPixels(a: GrayImage, b: GrayImage, skipQr: boolean): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let count = 0;
  a.pixels.forEach((level, index) => {
    const x = (index % a.width) / POINT;
    const y = Math.floor(index / a.width) / POINT;
    if (
      skipQr &&
      x >= QR_BOX.left - 2 &&
      x <= QR_BOX.right + 2 &&
      y >= QR_BOX.top - 2 &&
      y <= QR_BOX.bottom + 2
    ) {
      return;
    }
    if (Math.abs(level - (b.pixels[index] ?? 255)) > 64) count++;
  });
  return count;
}

// The naive baseline of `npm run bench` (bench/naive: pdf-lib's drawing calls,
// fontkit's full layout engine) prints the same pages: no glyph goes missing
// or moves in the fast paths of src/pdf.
const renderNaive = await loadNaiveRenderer();

describe("the renderer against the naive baseline", () => {
  it.each([
    ["full", FULL_DOCUMENT, 1, false],
    ["long, page 2", LONG_DOCUMENT, 2, false],
    ["full, demo", FULL_DOCUMENT, 1, true],
  ] as const)(
    "prints the %s document as the baseline does",
    async (_, data, page, demo) => {
      const input = { data, ...ISSUE, locale: DOCUMENT_LOCALES[0], demo };
      const fast = await renderDocumentPdf(input);
      const naive = await renderNaive(input);
      expect(fast.pages).toBe(naive.pages);
      // Another file, drawn the plain way: the module swap took effect.
      expect(naive.bytes.byteLength).toBeGreaterThan(fast.bytes.byteLength);
      const fastImage = await renderPage(fast.bytes, DPI, page);
      const naiveImage = await renderPage(naive.bytes, DPI, page);
      expect(
        fastImage.pixels.filter((level) => level < 128).length,
      ).toBeGreaterThan(10_000);
      expect(differingPixels(fastImage, naiveImage, page === 1)).toBeLessThan(
        20,
      );
    },
  );
});
