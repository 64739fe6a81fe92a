import type { PDFDocument, PDFPage, PDFRef } from "@cantoo/pdf-lib";
import { qrSymbol } from "../qr/symbol";
import { appendContent, pdfNumber } from "./content";

/** Where a QR code goes: a `size`-point square whose top-left corner is (x, top). */
export interface QrSquare {
  x: number;
  top: number;
  size: number;
}

/** Each document's QR image, embedded once and drawn on every page. */
const IMAGES = new WeakMap<PDFDocument, { url: string; ref: PDFRef }>();

/**
 * The QR symbol of `url` (error correction M), quiet zone included, as a
 * 1-bit grey image of one pixel a module, 0 black, 1 white: some hundred
 * bytes compressed, which every page reuses. Not interpolated, so that a
 * reader scales it up with sharp module edges.
 */
function qrImage(pdf: PDFDocument, url: string): PDFRef {
  const known = IMAGES.get(pdf);
  if (known?.url === url) return known.ref;
  const { runs, modules } = qrSymbol(url);
  const rowBytes = Math.ceil(modules / 8);
  const samples = new Uint8Array(rowBytes * modules).fill(0xff);
  for (const run of runs) {
    for (let x = run.x; x < run.x + run.length; x++) {
      const at = run.y * rowBytes + (x >> 3);
      samples[at] = (samples[at] as number) & ~(0x80 >> (x & 7));
    }
  }
  const { context } = pdf;
  const ref = context.register(
    context.flateStream(samples, {
      Type: "XObject",
      Subtype: "Image",
      Width: modules,
      Height: modules,
      ColorSpace: "DeviceGray",
      BitsPerComponent: 1,
      Interpolate: false,
    }),
  );
  IMAGES.set(pdf, { url, ref });
  return ref;
}

/**
 * Draws the QR code of `url` as a `size`-point square whose top-left corner
 * is (x, top): the document's one QR image, opaque, so that nothing behind
 * it (the demo watermark) reaches the symbol. Written in a content stream of
 * its own, after the page's pdf-lib stream (so over the watermark).
 */
export function drawQrCode(page: PDFPage, url: string, square: QrSquare): void {
  const name = page.node.newXObject("QR", qrImage(page.doc, url));
  const { x, top, size } = square;
  appendContent(
    page,
    `q ${pdfNumber(size)} 0 0 ${pdfNumber(size)} ${pdfNumber(x)} ${pdfNumber(top - size)} cm ${name.asString()} Do Q\n`,
  );
}
