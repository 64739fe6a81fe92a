import * as fontkit from "@cantoo/fontkit";
import type {
  DocumentPdf,
  DocumentPdfInput,
} from "../../src/domain/documents/render-port";
import type { PdfDrawing } from "../../src/pdf/drawing";
import { embedDocumentFonts } from "../../src/pdf/fonts";
import { drawDocumentPdf } from "../../src/pdf/render-document";
import { drawQrCode } from "./qr-code";
import { drawText } from "./text";

/**
 * The naive baseline of `npm run bench`: src/pdf's layout, drawn the plain
 * way. fontkit as pdf-lib's README registers it, so that every document
 * parses both font files again and every string is shaped by fontkit's full
 * layout engine; pdf-lib's drawing calls for text (text.ts); and an SVG-path
 * QR code from qrcode-generator (qr-code.ts).
 */
const NAIVE_DRAWING: PdfDrawing = {
  // The baseline renders the ordinary fixtures, which need no fallback font.
  embedFonts: (pdf) => embedDocumentFonts(pdf, new Map(), fontkit),
  canvas: (page) => ({
    page,
    text: (text, style, x, bottom) => drawText(page, text, style, x, bottom),
    qrCode: (url, square) => drawQrCode(page, url, square),
    // pdf-lib's drawing calls write as they go: nothing is held back.
    finish: () => {},
  }),
};

export const renderNaiveDocumentPdf = (
  input: DocumentPdfInput,
): Promise<DocumentPdf> => drawDocumentPdf(input, NAIVE_DRAWING);
