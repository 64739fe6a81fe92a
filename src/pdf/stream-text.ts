import { type PDFFont, PDFHexString, type PDFPage } from "@cantoo/pdf-lib";
import { appendContent, fillColor, pdfNumber } from "./content";
import { fontRuns } from "./font-runs";
import { glyphsWithoutText } from "./fonts";
import type { TextStyle } from "./styles";

// The content-stream writer of text: each page's text operators gathered
// while the page is laid out, written once the page is complete. Layout
// (lines.ts) draws through a PageCanvas and knows nothing of this.

/** The text of a page being drawn: content-stream operators, written out by finishText. */
interface PageText {
  operators: string[];
  fontKeys: Map<PDFFont, string>;
  font?: string;
  color?: string;
}

const pageTexts = new WeakMap<PDFPage, PageText>();

/**
 * Draws one line of printable text in the line box whose bottom edge is
 * `bottom`. The baseline sits a quarter of the leading above that edge, which
 * leaves room for descenders. The text goes into the page's text stream
 * (see finishText), which paints over the page's graphics.
 */
export function drawText(
  page: PDFPage,
  text: string,
  style: TextStyle,
  x: number,
  bottom: number,
): void {
  if (!text) return;
  let state = pageTexts.get(page);
  if (!state) {
    state = { operators: [], fontKeys: new Map() };
    pageTexts.set(page, state);
  }
  const color = fillColor(style.color);
  if (color !== state.color) {
    state.operators.push(color);
    state.color = color;
  }
  const y = bottom + style.leading * 0.25;
  // Placed left to right, written in logical order: extractors read the
  // content stream's order (a number after Arabic lands on its left).
  const runs = fontRuns(text, style);
  let left = x;
  const placed = runs.map((run, index) => {
    const at = left;
    if (index < runs.length - 1) {
      left += run.font.widthOfTextAtSize(run.text, style.size);
    }
    return { run, at };
  });
  placed.sort((a, b) => a.run.logical - b.run.logical);
  for (const { run, at } of placed) {
    const font = `${fontKeyOf(page, state, run.font)} ${pdfNumber(style.size)} Tf`;
    if (font !== state.font) {
      state.operators.push(font);
      state.font = font;
    }
    const shown = shownText(run.font, run.text);
    state.operators.push(
      `1 0 0 1 ${pdfNumber(at)} ${pdfNumber(y)} Tm ${
        run.actualText === undefined
          ? shown
          : `/Span <</ActualText ${PDFHexString.fromText(run.actualText)}>> BDC ${shown} EMC`
      }`,
    );
  }
}

/**
 * The operators that show `text` in `font` from the current position. A
 * glyph that stands for no character goes in a marked-content span whose
 * ActualText (PDF 32000 §14.9.4) is empty, so that readers extract nothing
 * for it rather than U+FFFD; the Tj after it carries on from where it ends.
 */
function shownText(font: PDFFont, text: string): string {
  const hex = font.encodeText(text).toString();
  const silent = glyphsWithoutText(font, text);
  if (!silent?.includes(true)) return `${hex} Tj`;
  // encodeText writes each glyph as 4 hex digits, in layout order.
  const codes = hex.slice(1, -1).match(/.{4}/g) ?? [];
  const shown: string[] = [];
  let glyphs = "";
  codes.forEach((code, index) => {
    if (!silent[index]) {
      glyphs += code;
      return;
    }
    if (glyphs) shown.push(`<${glyphs}> Tj`);
    glyphs = "";
    shown.push(`/Span <</ActualText ()>> BDC <${code}> Tj EMC`);
  });
  if (glyphs) shown.push(`<${glyphs}> Tj`);
  return shown.join(" ");
}

/** The name of `font` in the page's resources, added on first use. */
function fontKeyOf(page: PDFPage, state: PageText, font: PDFFont): string {
  let fontKey = state.fontKeys.get(font);
  if (!fontKey) {
    fontKey = page.node.newFontDictionary(font.name, font.ref).toString();
    state.fontKeys.set(font, fontKey);
  }
  return fontKey;
}

/** Writes the text drawn on `page` into its content, once the page is complete. */
export function finishText(page: PDFPage): void {
  const state = pageTexts.get(page);
  if (!state) return;
  pageTexts.delete(page);
  appendContent(page, `q\nBT\n${state.operators.join("\n")}\nET\nQ\n`);
}
