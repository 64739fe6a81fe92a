import { deflateSync } from "node:zlib";
import { type PDFDocument, typedArrayFor } from "@cantoo/pdf-lib";

/**
 * Makes `pdf` compress the streams it embeds (fonts, their ToUnicode maps,
 * content streams, the QR image) with the platform's zlib, native code in
 * workerd and Node, instead of fflate's deflate in JavaScript: the same
 * FlateDecode streams, a fifth of the render's CPU less (bench/README.md,
 * "Where the CPU goes").
 */
export function deflateNatively(pdf: PDFDocument): void {
  const { context } = pdf;
  context.flateStream = (contents, dict = {}) =>
    context.stream(deflateSync(typedArrayFor(contents)), {
      ...dict,
      Filter: "FlateDecode",
    });
}
