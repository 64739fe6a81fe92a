import * as fontkit from "@cantoo/fontkit";
import type { PDFDocument, PDFFont } from "@cantoo/pdf-lib";
import boldFile from "../../fonts/NotoSans-Bold.ttf";
import regularFile from "../../fonts/NotoSans-Regular.ttf";

const REGULAR = new Uint8Array(regularFile);
const BOLD = new Uint8Array(boldFile);

/** What prints in place of a character the font cannot draw (an emoji, CJK). */
const FALLBACK_CHARACTER = "?";

const parsedFonts = new WeakMap<Uint8Array, fontkit.Font>();

function parseOnce(bytes: Uint8Array): fontkit.Font {
  let font = parsedFonts.get(bytes);
  if (!font) {
    const parsed = fontkit.create(bytes);
    if (!("layout" in parsed)) throw new Error("Not a single font file.");
    font = parsed;
    font.layout = cmapLayout(font);
    decodeGlyphsOnce(font);
    parsedFonts.set(bytes, font);
  }
  return font;
}

/** A glyph as fontkit's subsetter reads it: `_decode` is internal to fontkit. */
type DecodableGlyph = fontkit.Glyph & { _decode(): unknown };

/**
 * Makes each glyph decode its outline once: fontkit's subsetter decodes every
 * glyph it copies, for each document again, which took a fifth of a
 * document's time (`npm run bench`). A parsed font never changes, and
 * nothing mutates the decoded outline of a font without variations.
 */
function decodeGlyphsOnce(font: fontkit.Font): void {
  const getGlyph = font.getGlyph.bind(font);
  const once = new WeakSet<fontkit.Glyph>();
  font.getGlyph = (id, codePoints) => {
    const glyph = getGlyph(id, codePoints) as DecodableGlyph | null;
    if (glyph && !once.has(glyph)) {
      const decode = glyph._decode.bind(glyph);
      // Boxed: a glyph without an outline (the space) decodes to null.
      let decoded: { outline: unknown } | undefined;
      glyph._decode = () => {
        decoded ??= { outline: decode() };
        return decoded.outline;
      };
      once.add(glyph);
    }
    return glyph;
  };
}

/**
 * fontkit's `layout` without its shaping engine, which costs more than the
 * rest of a document: our cut of Noto Sans has no GSUB, GPOS or kern table
 * (Latin, Greek and Cyrillic need none once text is NFC, see printable), so
 * shaping a string is only mapping each code point through the cmap, which
 * this does with one cached glyph per code point. pdf-lib reads the glyphs'
 * ids and advance widths, exactly what the full engine gives for this font.
 */
function cmapLayout(font: fontkit.Font): fontkit.Font["layout"] {
  const glyphs = new Map<number, fontkit.Glyph>();
  const glyphOf = (codePoint: number): fontkit.Glyph => {
    const cached = glyphs.get(codePoint);
    if (cached) return cached;
    const glyph = font.glyphForCodePoint(codePoint) ?? font.getGlyph(0);
    if (!glyph) throw new Error("The font has no .notdef glyph.");
    glyphs.set(codePoint, glyph);
    return glyph;
  };
  return ((text: string) => {
    const run: fontkit.Glyph[] = [];
    for (let i = 0; i < text.length; i++) {
      const codePoint = text.codePointAt(i) ?? 0;
      if (codePoint > 0xffff) i++;
      run.push(glyphOf(codePoint));
    }
    return { glyphs: run };
  }) as unknown as fontkit.Font["layout"];
}

/**
 * fontkit as pdf-lib sees it, except that each font file is parsed once per
 * isolate and shared by every document. Subsetting with this fontkit is
 * synchronous (no stream, no timer), so documents rendered at the same time
 * never wait on one another.
 */
const sharedFontkit = { create: parseOnce };

export interface DocumentFonts {
  regular: PDFFont;
  bold: PDFFont;
}

/** fontkit as pdf-lib registers it. */
type Fontkit = Parameters<PDFDocument["registerFontkit"]>[0];

/**
 * Embeds the document font, regular and bold, as subsets of the glyphs used,
 * with the shared fontkit unless told otherwise (the naive baseline of
 * `npm run bench` passes fontkit itself).
 */
export async function embedDocumentFonts(
  pdf: PDFDocument,
  fontkit: Fontkit = sharedFontkit,
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
  const font = parseOnce(BOLD);
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
    const bold = new Set(parseOnce(BOLD).characterSet);
    drawable = new Set(
      parseOnce(REGULAR).characterSet.filter((codePoint) =>
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
