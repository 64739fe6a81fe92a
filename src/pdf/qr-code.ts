import type { PDFPage } from "@cantoo/pdf-lib";
import { correction, generate, mode } from "lean-qr";
import { appendContent, fillColor, pdfNumber } from "./content";
import { COLORS } from "./styles";

/** The blank border a reader needs around the symbol, in modules (ISO/IEC 18004). */
const QUIET_ZONE = 4;

/**
 * Digits and upper-case runs in their dense modes, the rest as UTF-8 bytes.
 * lean-qr's default would also try ISO 8859-1 and Shift JIS, which readers
 * such as zbar take for other text.
 */
const SEGMENT_MODES = [mode.numeric, mode.alphaNumeric, mode.utf8];

/** Where a QR code goes: a `size`-point square whose top-left corner is (x, top). */
export interface QrSquare {
  x: number;
  top: number;
  size: number;
}

/** A horizontal run of dark modules, in module units with the quiet zone (y grows downwards). */
interface ModuleRun {
  x: number;
  y: number;
  length: number;
}

/**
 * The symbol of `url` as runs of dark modules, and its side in modules,
 * quiet zone included. lean-qr picks the smallest version that holds the URL
 * at error correction M, then raises the correction level as far as that
 * version allows. It was chosen over qrcode-generator, whose mask scoring
 * took 2.4 ms of a 6.4 ms document against 0.4 ms here (`npm run bench`).
 */
function moduleRuns(url: string): {
  runs: ModuleRun[];
  modules: number;
} {
  const qr = generate(mode.auto(url, { modes: SEGMENT_MODES }), {
    minCorrectionLevel: correction.M,
  });
  const runs: ModuleRun[] = [];
  for (let row = 0; row < qr.size; row++) {
    let column = 0;
    while (column < qr.size) {
      if (!qr.get(column, row)) {
        column++;
        continue;
      }
      const start = column;
      while (column < qr.size && qr.get(column, row)) column++;
      runs.push({
        x: start + QUIET_ZONE,
        y: row + QUIET_ZONE,
        length: column - start,
      });
    }
  }
  return { runs, modules: qr.size + 2 * QUIET_ZONE };
}

/**
 * Draws the QR code of `url` as vectors (error correction M), quiet zone
 * included, as a `size`-point square whose top-left corner is (x, top). The
 * square is painted white first, so that nothing behind it (the demo
 * watermark) reaches the symbol.
 *
 * Written straight into a content stream of its own, after the page's
 * pdf-lib stream (so over the watermark): several hundred rectangles through
 * pdf-lib's SVG path parser and operator objects cost as much as the rest of
 * the page.
 */
export function drawQrCode(page: PDFPage, url: string, square: QrSquare): void {
  const { runs, modules } = moduleRuns(url);
  const { x, top, size } = square;
  const scale = size / modules;
  const content = [
    "q",
    fillColor(COLORS.white),
    `${pdfNumber(x)} ${pdfNumber(top - size)} ${pdfNumber(size)} ${pdfNumber(size)} re f`,
    fillColor(COLORS.ink),
    `${pdfNumber(scale)} 0 0 ${pdfNumber(-scale)} ${pdfNumber(x)} ${pdfNumber(top)} cm`,
    ...runs.map((run) => `${run.x} ${run.y} ${run.length} 1 re`),
    "f",
    "Q",
    "",
  ].join("\n");
  appendContent(page, content);
}
