/// <reference path="./naive-modules.d.ts" />
import type { renderDocumentPdf } from "../../src/pdf/render-document";

/**
 * The naive baseline of `npm run bench`: src/pdf's layout with plain font
 * embedding (fonts.ts: both fonts parsed for every document, fontkit's full
 * layout), pdf-lib's drawing calls (lines.ts) and an SVG-path QR code
 * (qr-code.ts). Needs the module swap of swap.ts.
 */
export async function loadNaiveRenderer(): Promise<typeof renderDocumentPdf> {
  const module = await import("../../src/pdf/render-document.ts?naive");
  return module.renderDocumentPdf;
}
