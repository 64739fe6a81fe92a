// The naive baseline prints the same pages as src/pdf: no glyph goes missing
// or moves in src/pdf's fast paths. `npm run bench` runs this first and stops
// when a page differs, since timing a renderer that prints wrong pages says
// nothing.

import type { DocumentPdfInput } from "../../src/domain/documents/render-port";
import { qrSquare } from "../../src/pdf/document-content";
import { CONTENT_TOP, HEADER_QR } from "../../src/pdf/page-frame";
import type { QrSquare } from "../../src/pdf/qr-code";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import { PAGE } from "../../src/pdf/styles";
import { type GrayImage, renderPage } from "../../test/pdf/pdf-tools";
import { RENDER_FIXTURES } from "../fixtures";
import { renderNaiveDocumentPdf } from "./render-document";

const DPI = 100;
const POINT = DPI / 72;
/** A pixel differs when its grey levels are further apart than this. */
const LEVEL_TOLERANCE = 64;
/** Anti-aliasing at glyph edges; one missing or moved glyph is hundreds. */
const MAX_DIFFERING_PIXELS = 20;
/** A printed page, not a blank one, however alike. */
const MIN_DARK_PIXELS = 10_000;

/**
 * The QR code's square on a page (under the header on page 1, in the header
 * after it), in points from the page's top-left corner, with 2 points around
 * it: its mask may differ from qrcode-generator's, its content not (the PDF
 * tests read it).
 */
const qrBox = (page: number) => {
  const qr: QrSquare = page === 1 ? qrSquare(CONTENT_TOP) : HEADER_QR;
  return {
    left: qr.x - 2,
    right: qr.x + qr.size + 2,
    top: PAGE.height - qr.top - 2,
    bottom: PAGE.height - qr.top + qr.size + 2,
  };
};

const CASES: { name: string; input: DocumentPdfInput; page: number }[] = [
  { name: "full", input: RENDER_FIXTURES.full, page: 1 },
  { name: "long, page 2", input: RENDER_FIXTURES.long, page: 2 },
  { name: "grouped, page 2", input: RENDER_FIXTURES.grouped, page: 2 },
  {
    name: "full, demo",
    input: { ...RENDER_FIXTURES.full, environment: "demo" },
    page: 1,
  },
  {
    name: "full, test",
    input: { ...RENDER_FIXTURES.full, environment: "test" },
    page: 1,
  },
];

function differingPixels(a: GrayImage, b: GrayImage, page: number): number {
  if (a.width !== b.width || a.height !== b.height) return a.pixels.length;
  const box = qrBox(page);
  let count = 0;
  a.pixels.forEach((level, index) => {
    const x = (index % a.width) / POINT;
    const y = Math.floor(index / a.width) / POINT;
    const inQr =
      x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;
    if (inQr) return;
    if (Math.abs(level - (b.pixels[index] ?? 255)) > LEVEL_TOLERANCE) count++;
  });
  return count;
}

/** Compares each case's page with the baseline's; throws at the first that differs. */
export async function compareWithNaiveBaseline(): Promise<
  Record<string, { differingPixels: number }>
> {
  const results: Record<string, { differingPixels: number }> = {};
  for (const { name, input, page } of CASES) {
    const fast = await renderDocumentPdf(input);
    const naive = await renderNaiveDocumentPdf(input);
    if (fast.pages !== naive.pages) {
      throw new Error(
        `naive baseline, ${name}: ${fast.pages} pages against the baseline's ${naive.pages}`,
      );
    }
    const fastImage = await renderPage(fast.bytes, DPI, page);
    const naiveImage = await renderPage(naive.bytes, DPI, page);
    const dark = fastImage.pixels.filter((level) => level < 128).length;
    if (dark < MIN_DARK_PIXELS) {
      throw new Error(
        `naive baseline, ${name}: page ${page} is nearly blank (${dark} dark pixels)`,
      );
    }
    const differing = differingPixels(fastImage, naiveImage, page);
    if (differing >= MAX_DIFFERING_PIXELS) {
      throw new Error(
        `naive baseline, ${name}: page ${page} differs from the baseline's in ${differing} pixels`,
      );
    }
    results[name] = { differingPixels: differing };
  }
  return results;
}
