// Where the fallback fonts come from: pinned npm packages (devDependencies),
// each under the SIL Open Font License 1.1; UnifontEX, the only one with a
// Reserved Font Name, is cut under a name of its own.
import type { FallbackFamily } from "../../src/font-coverage/fallback-families";

export interface FallbackSource {
  /** The font file inside node_modules (TrueType or WOFF). */
  font: string;
  /** Its licence, copied beside the cut font. */
  licence: string;
  /** Code points kept, as [first, last] ranges; none means all the font has. */
  keep?: readonly (readonly [number, number])[];
  /** OpenType tables kept for shaping (Arabic joining forms, emoji sequences); others are dropped. */
  shapingTables?: readonly string[];
  /**
   * A last resort: cut to the assigned code points that no font before it
   * draws, without controls and characters meant to be invisible (variation
   * selectors), which such a font draws as visible boxes.
   */
  lastResort?: boolean;
  /** The name of the cut, when the font's own is a Reserved Font Name. */
  renamed?: string;
}

const expo = (family: string, file: string) => ({
  font: `node_modules/@expo-google-fonts/${family}/400Regular/${file}`,
  licence: `node_modules/@expo-google-fonts/${family}/LICENSE_FONT`,
});

export const FALLBACK_SOURCES: Record<FallbackFamily, FallbackSource> = {
  symbols: {
    font: "node_modules/@fontsource/noto-sans-symbols-2/files/noto-sans-symbols-2-symbols-400-normal.woff",
    licence: "node_modules/@fontsource/noto-sans-symbols-2/LICENSE",
  },
  arabic: {
    ...expo("noto-sans-arabic", "NotoSansArabic_400Regular.ttf"),
    keep: [
      [0x0600, 0x06ff], // Arabic
      [0x0750, 0x077f], // Arabic Supplement
      [0x0870, 0x08ff], // Arabic Extended-B and -A
      [0xfb50, 0xfdff], // Arabic Presentation Forms-A
      [0xfe70, 0xfeff], // Arabic Presentation Forms-B
    ],
    shapingTables: ["GSUB", "GDEF"],
  },
  hebrew: {
    font: "node_modules/@fontsource/noto-sans-hebrew/files/noto-sans-hebrew-hebrew-400-normal.woff",
    licence: "node_modules/@fontsource/noto-sans-hebrew/LICENSE",
    keep: [
      [0x0590, 0x05ff], // Hebrew
      [0xfb1d, 0xfb4f], // Alphabetic Presentation Forms (Hebrew)
    ],
  },
  cjk: expo("noto-sans-sc", "NotoSansSC_400Regular.ttf"),
  hangul: {
    ...expo("noto-sans-kr", "NotoSansKR_400Regular.ttf"),
    keep: [
      [0x1100, 0x11ff], // Hangul Jamo
      [0x3130, 0x318f], // Hangul Compatibility Jamo
      [0xa960, 0xa97f], // Hangul Jamo Extended-A
      [0xac00, 0xd7ff], // Hangul Syllables, Jamo Extended-B
    ],
  },
  // Monochrome outlines (pdf-lib embeds no colour glyphs); its GSUB draws
  // each sequence (skin tone, ZWJ family, flag, keycap) as one glyph.
  emoji: {
    ...expo("noto-emoji", "NotoEmoji_400Regular.ttf"),
    shapingTables: ["GSUB"],
  },
  // UnifontEX (GNU Unifont extended): plain bitmap-style glyphs, one for
  // nearly every assigned character; the Basic Multilingual Plane only.
  "last-resort": {
    font: "node_modules/@fontsource/unifontex/files/unifontex-latin-400-normal.woff",
    licence: "node_modules/@fontsource/unifontex/LICENSE",
    keep: [[0x0000, 0xffff]],
    lastResort: true,
    renamed: "DecaLastResort",
  },
};

export const FALLBACK_DIRECTORY = "fonts/fallback";

/** The committed cut of a fallback font (its licence beside it, `-OFL.txt`). */
export const cutFallbackFont = (family: FallbackFamily): string =>
  `${FALLBACK_DIRECTORY}/${family}.ttf`;

/** Where the generated coverage of every font goes (see src/font-coverage/coverage.ts). */
export const COVERAGE_FILE = "fonts/coverage.json";
