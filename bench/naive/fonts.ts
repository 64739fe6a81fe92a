import * as fontkit from "@cantoo/fontkit";
import type { PDFDocument, PDFFont } from "@cantoo/pdf-lib";
import boldFile from "../../fonts/NotoSans-Bold.ttf";
import regularFile from "../../fonts/NotoSans-Regular.ttf";

const REGULAR = new Uint8Array(regularFile);
const BOLD = new Uint8Array(boldFile);

/** What prints in place of a character the font cannot draw (an emoji, CJK). */
const FALLBACK_CHARACTER = "?";

// The naive baseline: fontkit as pdf-lib's README registers it, so that
// every document parses both font files again, and every string is shaped by
// fontkit's full layout engine. Kept to measure the renderer against.
const parseFont = (bytes: Uint8Array): fontkit.Font => {
  const parsed = fontkit.create(bytes);
  if (!("layout" in parsed)) throw new Error("Not a single font file.");
  return parsed;
};

export interface DocumentFonts {
  regular: PDFFont;
  bold: PDFFont;
}

/** Embeds the document font, regular and bold, as subsets of the glyphs used. */
export async function embedDocumentFonts(
  pdf: PDFDocument,
): Promise<DocumentFonts> {
  pdf.registerFontkit(fontkit);
  const regular = await pdf.embedFont(REGULAR, { subset: true });
  const bold = await pdf.embedFont(BOLD, { subset: true });
  return { regular, bold };
}

/**
 * Text in the bold font as one SVG path (y down, origin at the start of the
 * baseline) at `size` points: drawn as shapes rather than text, it stays out
 * of the text that readers extract and copy.
 */
export function boldOutline(
  text: string,
  size: number,
): { path: string; width: number } {
  const font = parseFont(BOLD);
  const scale = size / font.unitsPerEm;
  let advance = 0;
  let path = "";
  for (const glyph of font.layout(text).glyphs) {
    const offset = advance;
    path += glyph.path
      .mapPoints((x, y) => [(x + offset) * scale, -y * scale])
      .toSVG();
    advance += glyph.advanceWidth;
  }
  return { path, width: advance * scale };
}

let drawable: ReadonlySet<number> | undefined;

/** Code points that both weights can draw. */
function drawableCodePoints(): ReadonlySet<number> {
  if (!drawable) {
    const bold = new Set(parseFont(BOLD).characterSet);
    drawable = new Set(
      parseFont(REGULAR).characterSet.filter((codePoint) =>
        bold.has(codePoint),
      ),
    );
  }
  return drawable;
}

/**
 * Text as the document prints it: composed (NFC, so that `S` + combining
 * comma becomes the single glyph `Ș`), line breaks as `\n`, tabs as spaces,
 * and every character the font lacks as FALLBACK_CHARACTER.
 */
export function printable(text: string): string {
  const glyphs = drawableCodePoints();
  let result = "";
  for (const character of text
    .normalize("NFC")
    .replace(/\r\n?/g, "\n")
    .replaceAll("\t", " ")) {
    const codePoint = character.codePointAt(0) ?? 0;
    result +=
      character === "\n" || glyphs.has(codePoint)
        ? character
        : FALLBACK_CHARACTER;
  }
  return result;
}
