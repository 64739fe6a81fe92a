import coverage from "../../fonts/coverage.json";
import { FALLBACK_FAMILIES, type FallbackFamily } from "./fallback-families";
import { neverPrinted } from "./never-printed";

// Which code points each font draws that no font before it draws, and the
// key of each fallback font's file in the FONTS bucket: fonts/coverage.json,
// written by `npm run fonts` with the cut fonts.

/** Who draws a code point: the document font, or a fallback font. */
export type FontChoice = "base" | FallbackFamily;

/** Code point ranges as `npm run fonts` writes them: `first-last` in hex, comma-separated. */
type RangeList = readonly number[];

const parseRanges = (ranges: string): RangeList =>
  ranges.split(",").flatMap((range) => {
    const [first = "", last = first] = range.split("-");
    return [Number.parseInt(first, 16), Number.parseInt(last, 16)];
  });

/** Whether a sorted flat list of [first, last] pairs holds `codePoint`. */
function inRanges(ranges: RangeList, codePoint: number): boolean {
  let low = 0;
  let high = ranges.length / 2 - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (codePoint < (ranges[2 * middle] ?? 0)) high = middle - 1;
    else if (codePoint > (ranges[2 * middle + 1] ?? 0)) low = middle + 1;
    else return true;
  }
  return false;
}

const BASE = parseRanges(coverage.base);
// Parsed on the first code point the document font lacks, which most
// documents never hold.
let fallbacks: (readonly [FallbackFamily, RangeList])[] | undefined;

/** The key of a fallback font's file in the FONTS bucket (its content hash is part of it). */
export const fallbackFontKey = (family: FallbackFamily): string =>
  coverage.fallbacks[family].key;

/** The font that draws `codePoint`, or null when none does. */
export function fontFor(codePoint: number): FontChoice | null {
  // Printable ASCII, most of any document, without a search.
  if ((codePoint >= 0x20 && codePoint < 0x7f) || inRanges(BASE, codePoint)) {
    return "base";
  }
  fallbacks ??= FALLBACK_FAMILIES.map(
    (family) =>
      [family, parseRanges(coverage.fallbacks[family].ranges)] as const,
  );
  for (const [family, ranges] of fallbacks) {
    if (inRanges(ranges, codePoint)) return family;
  }
  return null;
}

/**
 * Text as the document prints it: composed (NFC, so that `S` + combining
 * comma becomes the single glyph `Ș`), line breaks as `\n`, tabs as spaces.
 */
export const printable = (text: string): string =>
  text.normalize("NFC").replace(/\r\n?/g, "\n").replaceAll("\t", " ");

/** The first code point of `text` that no font prints, or null when all print. */
export function unprintableCodePoint(text: string): number | null {
  for (const character of printable(text)) {
    const codePoint = character.codePointAt(0) ?? 0;
    if (character === "\n") continue;
    if (neverPrinted(character) || !fontFor(codePoint)) return codePoint;
  }
  return null;
}

/**
 * The code points that `accepts` and the fonts print alone, as sorted
 * `[first, last]` ranges. Composition cannot join printed code points into
 * an unprinted one nor the reverse (the fonts cover whole canonical
 * compositions), so a text prints exactly when each of its code points
 * does: test/schemas/printed-text-pattern.test.ts checks it.
 */
export function printableCodePointRanges(
  accepts: (character: string) => boolean,
): [number, number][] {
  const ranges: [number, number][] = [];
  for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
    const character = String.fromCodePoint(codePoint);
    // Most code points are unassigned: refused without normalizing them.
    if (
      neverPrinted(character) ||
      !accepts(character) ||
      unprintableCodePoint(character) !== null
    ) {
      continue;
    }
    const last = ranges.at(-1);
    if (last && last[1] === codePoint - 1) last[1] = codePoint;
    else ranges.push([codePoint, codePoint]);
  }
  return ranges;
}

/** The fallback fonts that printing `texts` needs. */
export function fallbackFamiliesFor(
  texts: Iterable<string>,
): Set<FallbackFamily> {
  const families = new Set<FallbackFamily>();
  for (const text of texts) {
    for (const character of printable(text)) {
      const font = fontFor(character.codePointAt(0) ?? 0);
      if (font && font !== "base") families.add(font);
    }
  }
  return families;
}

/** `U+E000`, as messages name a code point. */
export const codePointName = (codePoint: number): string =>
  `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;
