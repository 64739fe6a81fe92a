/**
 * The fallback fonts, in the order a character looks for a glyph after the
 * document font (Noto Sans) lacks one: symbols, Arabic, Hebrew, CJK, Hangul,
 * emoji, and last the last resort (GNU Unifont's glyphs, plain but covering
 * nearly every assigned character of the Basic Multilingual Plane: Devanagari,
 * Thai, Armenian, Georgian, Ethiopic...). `npm run fonts` cuts them
 * (scripts/subset-fallback-fonts.ts).
 */
export const FALLBACK_FAMILIES = [
  "symbols",
  "arabic",
  "hebrew",
  "cjk",
  "hangul",
  "emoji",
  "last-resort",
] as const;

export type FallbackFamily = (typeof FALLBACK_FAMILIES)[number];

/** How a fallback font turns text into glyphs (see fonts.ts). */
export const SHAPING: Record<FallbackFamily, "cmap" | "opentype"> = {
  symbols: "cmap",
  // Joining forms (initial, medial, final) come from the font's GSUB.
  arabic: "opentype",
  hebrew: "cmap",
  cjk: "cmap",
  hangul: "cmap",
  // Sequences (skin tone, family, flag, keycap) become one glyph by its GSUB.
  emoji: "opentype",
  "last-resort": "cmap",
};
