import { deflateSync } from "node:zlib";
import {
  type PDFDocument,
  PDFFlateStream,
  PDFName,
  typedArrayFor,
} from "@cantoo/pdf-lib";

// The document's streams compressed with the platform's zlib, native code in
// workerd and Node, instead of fflate's deflate in JavaScript: the same
// FlateDecode streams for a fraction of the CPU (bench/README.md, "Where the
// CPU goes").

const FILTER = PDFName.of("Filter");
const FLATE_DECODE = PDFName.of("FlateDecode");

/**
 * Makes `pdf` compress what it embeds (fonts, their ToUnicode maps, the
 * content streams and QR image the service writes) natively: call it first.
 */
export function deflateNatively(pdf: PDFDocument): void {
  const { context } = pdf;
  context.flateStream = (contents, dict = {}) =>
    context.stream(deflateSync(typedArrayFor(contents)), {
      ...dict,
      Filter: "FlateDecode",
    });
}

/**
 * Compresses pdf-lib's own content streams (what its drawing calls wrote, a
 * field's appearance) natively, before `save` would with fflate: call it
 * once the pages are drawn.
 */
export function deflateDrawnStreams(pdf: PDFDocument): void {
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (
      object instanceof PDFFlateStream &&
      object.dict.get(FILTER) === FLATE_DECODE
    ) {
      object.updateContents(deflateSync(object.getUnencodedContents()));
    }
  }
}
