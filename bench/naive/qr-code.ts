import type { PDFPage } from "@cantoo/pdf-lib";
import qrcode from "qrcode-generator";
import type { QrSquare } from "../../src/pdf/qr-code";
import { COLORS } from "../../src/pdf/styles";

// The naive baseline draws its QR code with qrcode-generator, the QR library
// the service started with, which src/pdf replaced by the faster lean-qr.

/** The blank border a reader needs around the symbol, in modules (ISO/IEC 18004). */
const QUIET_ZONE = 4;

/**
 * qrcode-generator's byte mode keeps the low 8 bits of each UTF-16 unit, so
 * the URL goes in as one character per UTF-8 byte: any URL encodes exactly.
 */
const utf8Bytes = (text: string): string =>
  String.fromCharCode(...new TextEncoder().encode(text));

/** Dark modules as one SVG path of horizontal runs, in module units. */
function modulePath(url: string): { path: string; modules: number } {
  const qr = qrcode(0, "M");
  qr.addData(utf8Bytes(url), "Byte");
  qr.make();
  const count = qr.getModuleCount();
  let path = "";
  for (let row = 0; row < count; row++) {
    let column = 0;
    while (column < count) {
      if (!qr.isDark(row, column)) {
        column++;
        continue;
      }
      const start = column;
      while (column < count && qr.isDark(row, column)) column++;
      const run = column - start;
      path += `M${start + QUIET_ZONE} ${row + QUIET_ZONE}h${run}v1h-${run}z`;
    }
  }
  return { path, modules: count + 2 * QUIET_ZONE };
}

/**
 * Draws the QR code of `url` as vectors (error correction M), quiet zone
 * included, as a `size`-point square whose top-left corner is (x, top). The
 * square is painted white first, so that nothing behind it (the demo
 * watermark) reaches the symbol.
 */
export function drawQrCode(page: PDFPage, url: string, square: QrSquare): void {
  const { path, modules } = modulePath(url);
  const { x, top, size } = square;
  page.drawRectangle({
    x,
    y: top - size,
    width: size,
    height: size,
    color: COLORS.white,
  });
  page.drawSvgPath(path, {
    x,
    y: top,
    scale: size / modules,
    color: COLORS.ink,
  });
}
