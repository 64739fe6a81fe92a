// `npm run fonts`: cuts Noto Sans down to the scripts that hauliers' names and
// addresses use, so that the Worker bundle stays small. Each document then
// embeds only the glyphs it prints (pdf-lib's subsetting at render time).
//
// Source: the npm package `@expo-google-fonts/noto-sans` (see
// scripts/lib/font-files.ts); its licence, the SIL Open Font License 1.1, is fonts/OFL.txt. Noto has no
// Reserved Font Name, so the cut fonts keep their name; they gain one glyph,
// the arrow of a correction's changes (scripts/lib/arrow-glyph.ts).
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import subsetFont from "subset-font";
import { withArrow } from "./lib/arrow-glyph";
import { CUT_FONTS, ORIGINAL_FONTS } from "./lib/font-files";

/** Unicode blocks kept, first and last code point of each. */
const KEPT_BLOCKS: readonly (readonly [number, number])[] = [
  [0x0020, 0x007e], // Basic Latin
  [0x00a0, 0x00ff], // Latin-1 Supplement
  [0x0100, 0x024f], // Latin Extended-A and -B
  [0x02b0, 0x02ff], // Spacing Modifier Letters
  [0x0300, 0x036f], // Combining Diacritical Marks
  [0x0370, 0x03ff], // Greek and Coptic
  [0x0400, 0x052f], // Cyrillic and Cyrillic Supplement
  [0x1e00, 0x1eff], // Latin Extended Additional
  [0x2000, 0x206f], // General Punctuation
  [0x20a0, 0x20cf], // Currency Symbols
  [0x2100, 0x214f], // Letterlike Symbols (№, ℃)
  [0xfffd, 0xfffd], // Replacement Character
];

const keptCharacters = KEPT_BLOCKS.flatMap(([first, last]) =>
  Array.from({ length: last - first + 1 }, (_, i) =>
    String.fromCodePoint(first + i),
  ),
).join("");

for (const weight of ["regular", "bold"] as const) {
  const source = ORIGINAL_FONTS[weight];
  if (!existsSync(source)) {
    console.error(`${source} is missing: run npm install`);
    process.exit(1);
  }
  const cut = await subsetFont(await readFile(source), keptCharacters, {
    targetFormat: "truetype",
    // PDF viewers scale the outlines themselves: hinting only adds bytes.
    noHinting: true,
    // pdf-lib places glyphs by their advance widths alone, so kerning and
    // substitution tables would only cost bytes and layout time.
    dropTables: ["GSUB", "GPOS", "GDEF", "DSIG"],
  });
  await writeFile(CUT_FONTS[weight], withArrow(cut));
  console.log(`${CUT_FONTS[weight]} written`);
}
