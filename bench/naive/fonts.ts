import * as fontkit from "@cantoo/fontkit";
import type { PDFDocument, PDFFont } from "@cantoo/pdf-lib";
import boldFile from "../../fonts/NotoSans-Bold.ttf";
import regularFile from "../../fonts/NotoSans-Regular.ttf";
import type { FallbackFonts } from "../../src/pdf/fonts";

const REGULAR = new Uint8Array(regularFile);
const BOLD = new Uint8Array(boldFile);

// The naive baseline: fontkit as pdf-lib's README registers it, so that
// every document parses both font files again, and every string is shaped by
// fontkit's full layout engine. Kept to measure the renderer against.

export interface DocumentFonts {
  regular: PDFFont;
  bold: PDFFont;
  fallbacks: FallbackFonts;
}

/** Embeds the document font, regular and bold, as subsets of the glyphs used. */
export async function embedDocumentFonts(
  pdf: PDFDocument,
): Promise<DocumentFonts> {
  pdf.registerFontkit(fontkit);
  const regular = await pdf.embedFont(REGULAR, { subset: true });
  const bold = await pdf.embedFont(BOLD, { subset: true });
  // The benchmark's documents need no fallback font.
  return { regular, bold, fallbacks: new Map() };
}

// The watermark outline and the character mapping are the renderer's own.
export { boldOutline, printable } from "../../src/pdf/fonts";
