import * as fontkit from "@cantoo/fontkit";
import type { PDFDocument, PDFFont } from "@cantoo/pdf-lib";
import boldFile from "../../fonts/NotoSans-Bold.ttf";
import regularFile from "../../fonts/NotoSans-Regular.ttf";
import type { FontFiles } from "../domain/documents/render-port";
import {
  type FallbackFamily,
  SHAPING,
} from "../font-coverage/fallback-families";
import { RIGHT_TO_LEFT_LETTER } from "./bidi";

const REGULAR = new Uint8Array(regularFile);
const BOLD = new Uint8Array(boldFile);

const parsedFonts = new WeakMap<Uint8Array, fontkit.Font>();

function parseOnce(
  bytes: Uint8Array,
  shaping: "cmap" | "opentype" = "cmap",
): fontkit.Font {
  let font = parsedFonts.get(bytes);
  if (!font) {
    const parsed = fontkit.create(bytes);
    if (!("layout" in parsed)) throw new Error("Not a single font file.");
    font = parsed;
    font.layout = shaping === "cmap" ? cmapLayout(font) : directedLayout(font);
    decodeGlyphsOnce(font);
    parsedFonts.set(bytes, font);
  }
  return font;
}

/**
 * fontkit's full layout (GSUB: Arabic joining forms, ligatures such as
 * lam-alef), right to left only when the run has a right-to-left letter:
 * fontkit would otherwise take Arabic-Indic digits for Arabic text and
 * reverse them. The glyphs come back in visual order, each knowing the
 * code points it stands for, which pdf-lib writes into the ToUnicode map.
 */
function directedLayout(font: fontkit.Font): fontkit.Font["layout"] {
  const layout = font.layout.bind(font);
  return ((text: string, features?: Parameters<typeof layout>[1]) =>
    layout(
      text,
      features,
      undefined,
      undefined,
      RIGHT_TO_LEFT_LETTER.test(text) ? "rtl" : "ltr",
    )) as fontkit.Font["layout"];
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
 * (Latin, Greek and Cyrillic need none once text is NFC, see printable), nor
 * have the fallback fonts but Arabic's and emoji's (symbols, Hebrew, CJK), so
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

/** Fallback fonts by family, for the characters the document font lacks. */
export type FallbackFonts = ReadonlyMap<FallbackFamily, PDFFont>;

export interface DocumentFonts {
  regular: PDFFont;
  bold: PDFFont;
  /** One weight each: a fallback glyph in bold text prints regular. */
  fallbacks: FallbackFonts;
}

/** The fonts whose own layout shapes text, as parsed with that layout. */
const shapedFonts = new WeakMap<PDFFont, fontkit.Font>();

/**
 * For each glyph that `font` prints `text` with, whether it stands for no
 * character: the font's layout may draw a letter as two glyphs (Noto Sans
 * Arabic draws a letter's dots apart from its body), the first standing for
 * the letter, the other for nothing, which pdf-lib's ToUnicode map writes as
 * an empty entry that readers extract as U+FFFD. None for a font that maps
 * each character to one glyph.
 */
export function glyphsWithoutText(
  font: PDFFont,
  text: string,
): boolean[] | undefined {
  return shapedFonts
    .get(font)
    ?.layout(text)
    .glyphs.map((glyph) => glyph.codePoints.length === 0);
}

/**
 * The code points of the one glyph that `font`'s own layout draws `sequence`
 * with (an emoji font's ligature), or null when it draws it otherwise.
 */
export function ligatureOf(font: PDFFont, sequence: string): number[] | null {
  const glyphs = shapedFonts.get(font)?.layout(sequence).glyphs;
  const [glyph] = glyphs ?? [];
  return glyphs?.length === 1 && glyph && glyph.id !== 0
    ? glyph.codePoints
    : null;
}

/** fontkit as pdf-lib registers it. */
type Fontkit = Parameters<PDFDocument["registerFontkit"]>[0];

/**
 * Embeds the document font, regular and bold, and the fallback fonts given,
 * each as a subset of the glyphs used: a document embeds only the fonts it
 * prints with. The shared fontkit unless told otherwise (the naive baseline
 * of `npm run bench` passes fontkit itself).
 */
export async function embedDocumentFonts(
  pdf: PDFDocument,
  fallbackFiles: FontFiles = new Map(),
  fontkit: Fontkit = sharedFontkit,
): Promise<DocumentFonts> {
  pdf.registerFontkit(fontkit);
  const regular = await pdf.embedFont(REGULAR, { subset: true });
  const bold = await pdf.embedFont(BOLD, { subset: true });
  const fallbacks = new Map<FallbackFamily, PDFFont>();
  for (const [family, bytes] of fallbackFiles) {
    // Parsed here with its shaping, so that pdf-lib's parse finds it done.
    const parsed = parseOnce(bytes, SHAPING[family]);
    const font = await pdf.embedFont(bytes, { subset: true });
    if (SHAPING[family] === "opentype") shapedFonts.set(font, parsed);
    fallbacks.set(family, font);
  }
  return { regular, bold, fallbacks };
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

export { printable } from "../font-coverage/coverage";
