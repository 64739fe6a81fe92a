import type { PDFFont } from "@cantoo/pdf-lib";
import {
  codePointName,
  type FontChoice,
  fontFor,
} from "../font-coverage/coverage";
import { SHAPING } from "../font-coverage/fallback-families";
import { reversedClusters, visualPieces } from "./bidi";
import type { FallbackFonts } from "./fonts";

/** A style's document font and the fallback fonts of the document. */
export interface StyleFonts {
  font: PDFFont;
  fallbacks: FallbackFonts;
}

/** Text that one font prints, as that font's layout takes it. */
export interface FontRun {
  font: PDFFont;
  text: string;
}

/** Whether the document font draws every character: most text, found without splitting. */
function allInBase(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const codePoint = text.codePointAt(i) ?? 0;
    if (codePoint > 0xffff) i++;
    if (
      (codePoint < 0x20 || codePoint >= 0x7f) &&
      fontFor(codePoint) !== "base"
    )
      return false;
  }
  return true;
}

/**
 * One line of printable text as runs of one font each, left to right: each
 * character in the first font that draws it (src/font-coverage/coverage.ts), right-to-left
 * stretches in visual order (bidi.ts). Arabic runs stay in logical order,
 * since the Arabic font's own layout joins and reverses them.
 */
export function fontRuns(text: string, fonts: StyleFonts): FontRun[] {
  if (allInBase(text)) return [{ font: fonts.font, text }];
  const choiceOf = (character: string): FontChoice => {
    const codePoint = character.codePointAt(0) ?? 0;
    const choice = fontFor(codePoint);
    if (!choice) throw new Error(`No font draws ${codePointName(codePoint)}.`);
    return choice;
  };
  return visualPieces([...text], choiceOf).map((piece) => {
    const font = pdfFont(piece.font, fonts);
    const reverse =
      piece.rightToLeft &&
      (piece.font === "base" || SHAPING[piece.font] === "cmap");
    return { font, text: reverse ? reversedClusters(piece.text) : piece.text };
  });
}

function pdfFont(choice: FontChoice, fonts: StyleFonts): PDFFont {
  if (choice === "base") return fonts.font;
  const font = fonts.fallbacks.get(choice);
  // Issuing loads every fallback font that the data needs before rendering.
  if (!font) throw new Error(`The ${choice} fallback font was not given.`);
  return font;
}
