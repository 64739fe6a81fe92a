import type { PDFDocument, PDFPage } from "@cantoo/pdf-lib";
import type { FontFiles } from "../domain/documents/render-port";
import { type DocumentFonts, embedDocumentFonts } from "./fonts";
import { drawQrCode, type QrSquare } from "./qr-code";
import { drawText, finishText } from "./stream-text";
import type { TextStyle } from "./styles";

/** A page being drawn: pdf-lib's page for shapes, and how text and the QR code get onto it. */
export interface PageCanvas {
  readonly page: PDFPage;
  /** One line of printable text in the line box whose bottom edge is `bottom`. */
  text(text: string, style: TextStyle, x: number, bottom: number): void;
  /** The QR code of `url`, quiet zone included, on a white square. */
  qrCode(url: string, square: QrSquare): void;
  /** Writes out what the canvas held back, once the page is complete. */
  finish(): void;
}

/**
 * How a document's fonts, text and QR code get into the PDF. The layout does
 * not depend on it: the naive baseline of `npm run bench` lays documents out
 * with the same modules and draws them the plain way.
 */
export interface PdfDrawing {
  /** The document fonts, and the fallback fonts for what they lack. */
  embedFonts(
    pdf: PDFDocument,
    fallbackFiles: FontFiles,
  ): Promise<DocumentFonts>;
  canvas(page: PDFPage): PageCanvas;
}

/** The service's own: fonts parsed once per isolate, text and QR modules written straight into content streams. */
export const STREAM_DRAWING: PdfDrawing = {
  embedFonts: (pdf, fallbackFiles) => embedDocumentFonts(pdf, fallbackFiles),
  canvas: (page) => ({
    page,
    text: (text, style, x, bottom) => drawText(page, text, style, x, bottom),
    qrCode: (url, square) => drawQrCode(page, url, square),
    finish: () => finishText(page),
  }),
};
