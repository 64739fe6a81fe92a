import type { PDFPage } from "@cantoo/pdf-lib";
import { qrSymbol } from "../qr/symbol";
import { appendContent, fillColor, pdfNumber } from "./content";
import { COLORS } from "./styles";

/** Where a QR code goes: a `size`-point square whose top-left corner is (x, top). */
export interface QrSquare {
  x: number;
  top: number;
  size: number;
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
  const { runs, modules } = qrSymbol(url);
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
