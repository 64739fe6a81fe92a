// `npm run fonts` (second step): cuts the fallback fonts that print what
// Noto Sans cannot (symbols, Arabic, Hebrew, CJK, Hangul, emoji) from their
// npm packages (scripts/lib/fallback-font-files.ts), last a last-resort font
// for what none of them draws (Devanagari, Thai, Armenian, Georgian...), into fonts/fallback/,
// each with its licence, and writes fonts/coverage.json: the code points of
// the document font and of each fallback font, which validation and the
// renderer read. The Worker fetches the fallback fonts from its FONTS bucket
// (scripts/upload-fonts.ts), only for documents that need them.
import { createHash } from "node:crypto";
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { basename } from "node:path";
import * as fontkit from "@cantoo/fontkit";
import subsetFont from "subset-font";
import { FALLBACK_FAMILIES } from "../src/font-coverage/fallback-families";
import { neverPrinted } from "../src/font-coverage/never-printed";
import {
  COVERAGE_FILE,
  cutFallbackFont,
  FALLBACK_DIRECTORY,
  FALLBACK_SOURCES,
} from "./lib/fallback-font-files";
import { CUT_FONTS } from "./lib/font-files";
import { renameFont } from "./lib/rename-font";

function singleFont(bytes: Uint8Array): fontkit.Font {
  const font = fontkit.create(bytes);
  if (!("characterSet" in font)) throw new Error("Not a single font file.");
  return font;
}

/** The code points a font file maps to a glyph. */
async function characterSet(bytes: Uint8Array): Promise<Set<number>> {
  return new Set(singleFont(bytes).characterSet);
}

/** Sorted code points as `first-last` hex ranges, comma-separated. */
function rangesOf(codePoints: Iterable<number>): string {
  const sorted = [...codePoints].sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    const first = sorted[i] ?? 0;
    let last = first;
    while (sorted[i + 1] === last + 1) last = sorted[++i] ?? last;
    i++;
    ranges.push(
      first === last
        ? first.toString(16)
        : `${first.toString(16)}-${last.toString(16)}`,
    );
  }
  return ranges.join(",");
}

const inKept = (
  codePoint: number,
  keep: readonly (readonly [number, number])[] | undefined,
): boolean =>
  !keep ||
  keep.some(([first, last]) => codePoint >= first && codePoint <= last);

// Layout tables that pdf-lib never reads (it places glyphs by their advance
// widths), vertical metrics, and signatures: bytes only.
const UNUSED_TABLES = ["GSUB", "GPOS", "GDEF", "BASE", "JSTF", "MATH", "STAT"];
const ALWAYS_DROPPED = ["DSIG", "vhea", "vmtx", "VORG"];

const regular = await characterSet(await readFile(CUT_FONTS.regular));
const bold = await characterSet(await readFile(CUT_FONTS.bold));
const drawn = new Set([...regular].filter((codePoint) => bold.has(codePoint)));
const coverage = {
  base: rangesOf(drawn),
  fallbacks: {} as Record<string, { key: string; ranges: string }>,
};

// Controls and characters meant to be invisible: a last-resort font draws
// them as visible boxes, so they stay refused.
const NOT_SHOWN = /[\p{Cc}\p{Default_Ignorable_Code_Point}]/u;

/** Whether a last-resort font should draw `codePoint` (see FallbackSource). */
const lastResortDraws = (codePoint: number): boolean => {
  const character = String.fromCodePoint(codePoint);
  return (
    !drawn.has(codePoint) &&
    !neverPrinted(character) &&
    !NOT_SHOWN.test(character)
  );
};

await mkdir(FALLBACK_DIRECTORY, { recursive: true });
for (const family of FALLBACK_FAMILIES) {
  const source = FALLBACK_SOURCES[family];
  const original = await readFile(source.font);
  const kept = [...(await characterSet(original))].filter(
    (codePoint) =>
      inKept(codePoint, source.keep) &&
      (!source.lastResort || lastResortDraws(codePoint)),
  );
  const subset = await subsetFont(original, String.fromCodePoint(...kept), {
    targetFormat: "truetype",
    noHinting: true,
    dropTables: [
      ...UNUSED_TABLES.filter(
        (table) => !source.shapingTables?.includes(table),
      ),
      ...ALWAYS_DROPPED,
    ],
  });
  const cut = source.renamed
    ? renameFont(subset, source.renamed, singleFont(original))
    : subset;
  await writeFile(cutFallbackFont(family), cut);
  await copyFile(source.licence, `${FALLBACK_DIRECTORY}/${family}-OFL.txt`);
  // Only what no font before it draws: the renderer asks in this order.
  const served = [...(await characterSet(cut))].filter((codePoint) => {
    if (drawn.has(codePoint)) return false;
    drawn.add(codePoint);
    return true;
  });
  const hash = createHash("sha256").update(cut).digest("hex").slice(0, 16);
  coverage.fallbacks[family] = {
    key: `fallback/${hash}/${family}.ttf`,
    ranges: rangesOf(served),
  };
  console.log(
    `${cutFallbackFont(family)}: ${cut.length} bytes, ${served.length} code points (from ${basename(source.font)})`,
  );
}
await writeFile(COVERAGE_FILE, `${JSON.stringify(coverage, null, 2)}\n`);
console.log(`${COVERAGE_FILE} written`);
