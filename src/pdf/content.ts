import { type Color, ColorTypes, type PDFPage } from "@cantoo/pdf-lib";

// Content-stream text written directly, for what a document draws hundreds of
// times (text lines, QR modules): pdf-lib's drawing calls validate every
// option and build an operator object per operand, which costs more than the
// rest of the page.

/** A number as content streams write it: at most 3 decimals, no trailing zeros. */
export const pdfNumber = (value: number): string =>
  String(Math.round(value * 1000) / 1000);

/** The operator that sets the fill colour (RGB only, as every document colour is). */
export function fillColor(color: Color): string {
  if (color.type !== ColorTypes.RGB)
    throw new Error("Document colours are RGB.");
  return `${pdfNumber(color.red)} ${pdfNumber(color.green)} ${pdfNumber(color.blue)} rg`;
}

/**
 * Appends `content` to the page as a content stream of its own, compressed,
 * after the page's pdf-lib stream: it paints over everything pdf-lib draws
 * on the page, before or after this call.
 */
export function appendContent(page: PDFPage, content: string): void {
  page.pushOperators(); // makes sure pdf-lib's own stream comes first
  const { context } = page.doc;
  page.node.addContentStream(context.register(context.flateStream(content)));
}
