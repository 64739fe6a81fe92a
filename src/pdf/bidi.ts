/** Letters written right to left; digits, even Arabic-Indic ones, run left to right. */
export const RIGHT_TO_LEFT_LETTER =
  /[[\p{Script=Arabic}\p{Script=Hebrew}]--\p{Nd}]/v;

const LEFT_TO_RIGHT_LETTER = /[\p{L}--[\p{Script=Arabic}\p{Script=Hebrew}]]/v;
const DIGIT = /\p{Nd}/u;
const MARK = /\p{M}/u;

/** A piece of a line that one font prints: its characters in logical order. */
export interface Piece<F> {
  font: F;
  text: string;
  /** Printed right to left: its glyphs go in reverse order. */
  rightToLeft: boolean;
}

/**
 * A line as pieces of one font each, in the order they print from left to
 * right. A minimal bidi for a left-to-right document: a stretch from a
 * right-to-left letter to the last one before the next left-to-right letter
 * (the spaces, punctuation and numbers between them included) prints right
 * to left, its pieces in reverse order, numbers still left to right.
 */
export function visualPieces<F>(
  characters: readonly string[],
  fontOf: (character: string) => F,
): Piece<F>[] {
  const pieces: Piece<F>[] = [];
  let i = 0;
  while (i < characters.length) {
    const character = characters[i] ?? "";
    if (!RIGHT_TO_LEFT_LETTER.test(character)) {
      append(pieces, fontOf(character), character, false);
      i++;
      continue;
    }
    let end = i;
    for (let k = i; k < characters.length; k++) {
      const next = characters[k] ?? "";
      if (LEFT_TO_RIGHT_LETTER.test(next)) break;
      if (RIGHT_TO_LEFT_LETTER.test(next)) end = k;
    }
    const stretch: Piece<F>[] = [];
    for (let k = i; k <= end; k++) {
      const next = characters[k] ?? "";
      append(stretch, fontOf(next), next, !DIGIT.test(next));
    }
    pieces.push(...stretch.reverse());
    i = end + 1;
  }
  return pieces;
}

/** Adds a character to the last piece when it has the same font and direction. */
function append<F>(
  pieces: Piece<F>[],
  font: F,
  character: string,
  rightToLeft: boolean,
): void {
  const last = pieces.at(-1);
  if (last && last.font === font && last.rightToLeft === rightToLeft) {
    last.text += character;
  } else {
    pieces.push({ font, text: character, rightToLeft });
  }
}

/**
 * The characters of a right-to-left piece in visual order, each combining
 * mark still after the letter it sits on.
 */
export function reversedClusters(text: string): string {
  const clusters: string[] = [];
  for (const character of text) {
    if (MARK.test(character) && clusters.length > 0) {
      clusters[clusters.length - 1] += character;
    } else {
      clusters.push(character);
    }
  }
  return clusters.reverse().join("");
}
