import bidiFactory from "bidi-js";

/** Letters written right to left; digits, even Arabic-Indic ones, run left to right. */
export const RIGHT_TO_LEFT_LETTER =
  /[[\p{Script=Arabic}\p{Script=Hebrew}]--\p{Nd}]/v;

/**
 * A unit of a line (a character with the marks on it, or an emoji
 * sequence), printed in one font; one that a reader extracts as other text
 * (`actualText`) is a piece of its own.
 */
export interface Unit<F> {
  text: string;
  font: F;
  actualText?: string;
}

/** Units of one font and level, in visual order. */
export interface Piece<U> {
  units: U[];
  /** Its embedding level: 0 left to right; odd right to left; a number in right-to-left text 2. */
  level: number;
  /** The place of its first unit in the line's logical order. */
  first: number;
}

// Built on first use: most lines need no bidi (fontRuns' fast path, and
// MAY_LEAVE_LEVEL_0 below).
let bidi: ReturnType<typeof bidiFactory> | undefined;

/**
 * The blocks of every character whose bidi class may raise a level above
 * 0 in a left-to-right line (R, AL, AN, explicit embeddings, overrides and
 * isolates; test/pdf/bidi.test.ts checks them against bidi-js): a line
 * without one is all at level 0, mirrors nothing, and keeps its order.
 */
const MAY_LEAVE_LEVEL_0 =
  /[\u0590-\u08FF\u200F\u202A-\u202E\u2066-\u2069\uFB1D-\uFDFF\uFE70-\uFEFE\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;

/**
 * The embedding level of each unit, by the level of its first character,
 * and the mirrored form of a one-character unit at a right-to-left level
 * (UAX #9, L4: `(` prints as `)`).
 */
function resolve(units: readonly { text: string }[]): {
  levels: number[];
  mirrored: (string | undefined)[];
} {
  const text = units.map((unit) => unit.text).join("");
  if (!MAY_LEAVE_LEVEL_0.test(text)) {
    return { levels: units.map(() => 0), mirrored: units.map(() => undefined) };
  }
  bidi ??= bidiFactory();
  // A left-to-right document: each line's base direction is left to right.
  const resolved = bidi.getEmbeddingLevels(text, "ltr");
  const mirrors = bidi.getMirroredCharactersMap(text, resolved.levels);
  const levels: number[] = [];
  const mirrored: (string | undefined)[] = [];
  let offset = 0;
  for (const unit of units) {
    levels.push(resolved.levels[offset] ?? 0);
    mirrored.push(unit.text.length === 1 ? mirrors.get(offset) : undefined);
    offset += unit.text.length;
  }
  return { levels, mirrored };
}

/**
 * The units' indices in visual order (UAX #9, L2): from the highest level
 * down to the lowest odd one, every run at that level or higher is reversed.
 */
function visualOrder(levels: readonly number[]): number[] {
  const order = levels.map((_, index) => index);
  const highest = Math.max(0, ...levels);
  for (let level = highest; level >= 1; level--) {
    let start = 0;
    while (start < order.length) {
      if ((levels[order[start] ?? 0] ?? 0) < level) {
        start++;
        continue;
      }
      let end = start;
      while (
        end + 1 < order.length &&
        (levels[order[end + 1] ?? 0] ?? 0) >= level
      )
        end++;
      const run = order.slice(start, end + 1).reverse();
      order.splice(start, run.length, ...run);
      start = end + 1;
    }
  }
  return order;
}

/**
 * A line's units as pieces of one font and level each, in the order they
 * print from left to right, as the Unicode Bidirectional Algorithm orders
 * them (bidi-js): a number after Arabic or Hebrew words lands on their left.
 * `mirror` gives the unit that prints a mirrored character in its place.
 */
export function visualPieces<U extends Unit<unknown>>(
  units: readonly U[],
  mirror: (unit: U, character: string) => U,
): Piece<U>[] {
  const { levels, mirrored } = resolve(units);
  const pieces: Piece<U>[] = [];
  for (const index of visualOrder(levels)) {
    const character = mirrored[index];
    const original = units[index] as U;
    const unit = character ? mirror(original, character) : original;
    const level = levels[index] ?? 0;
    const last = pieces.at(-1);
    const previous = last?.units.at(-1);
    if (
      last &&
      previous &&
      previous.font === unit.font &&
      last.level === level &&
      previous.actualText === undefined &&
      unit.actualText === undefined
    ) {
      last.units.push(unit);
      last.first = Math.min(last.first, index);
    } else {
      pieces.push({ units: [unit], level, first: index });
    }
  }
  return pieces;
}
