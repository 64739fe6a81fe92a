import type { PDFPage } from "@cantoo/pdf-lib";
import qrcode from "qrcode-generator";
import { appendContent, fillColor, pdfNumber } from "./content";
import { COLORS } from "./styles";

/** The blank border a reader needs around the symbol, in modules (ISO/IEC 18004). */
const QUIET_ZONE = 4;

/**
 * qrcode-generator's byte mode keeps the low 8 bits of each UTF-16 unit, so
 * the URL goes in as one character per UTF-8 byte: any URL encodes exactly.
 */
const utf8Bytes = (text: string): string =>
  String.fromCharCode(...new TextEncoder().encode(text));

/**
 * The symbol's dark modules (error correction M, the smallest version that
 * fits) as content-stream rectangles (`re`), one per horizontal run, in
 * module units with the quiet zone: y grows downwards.
 */
function moduleRuns(url: string): { runs: string; modules: number } {
  const qr = qrcode(0, "M");
  qr.addData(utf8Bytes(url), "Byte");
  qr.make();
  const size = qr.getModuleCount();
  const runs: string[] = [];
  for (let row = 0; row < size; row++) {
    let column = 0;
    while (column < size) {
      if (!qr.isDark(row, column)) {
        column++;
        continue;
      }
      const start = column;
      while (column < size && qr.isDark(row, column)) column++;
      runs.push(
        `${start + QUIET_ZONE} ${row + QUIET_ZONE} ${column - start} 1 re`,
      );
    }
  }
  return { runs: runs.join("\n"), modules: size + 2 * QUIET_ZONE };
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
export function drawQrCode(
  page: PDFPage,
  url: string,
  square: { x: number; top: number; size: number },
): void {
  const { runs, modules } = moduleRuns(url);
  const { x, top, size } = square;
  const scale = size / modules;
  const content = [
    "q",
    fillColor(COLORS.white),
    `${pdfNumber(x)} ${pdfNumber(top - size)} ${pdfNumber(size)} ${pdfNumber(size)} re f`,
    fillColor(COLORS.ink),
    `${pdfNumber(scale)} 0 0 ${pdfNumber(-scale)} ${pdfNumber(x)} ${pdfNumber(top)} cm`,
    runs,
    "f",
    "Q",
    "",
  ].join("\n");
  appendContent(page, content);
}
