/**
 * Splits text into lines no wider than `maxWidth`: at spaces where it can,
 * inside a word only when the word alone is too wide. Each `\n` starts a new
 * line. `widthOf` measures a piece of text, each character in the font that
 * prints it; words are measured whole, since Arabic letters change width as
 * they join.
 */
export function wrapText(
  text: string,
  maxWidth: number,
  widthOf: (text: string) => number,
): string[] {
  const spaceWidth = widthOf(" ");
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    let lineWidth = 0;
    for (const word of paragraph.split(" ")) {
      const wordWidth = widthOf(word);
      if (line && lineWidth + spaceWidth + wordWidth <= maxWidth) {
        line += ` ${word}`;
        lineWidth += spaceWidth + wordWidth;
        continue;
      }
      if (line) lines.push(line);
      if (wordWidth <= maxWidth) {
        line = word;
        lineWidth = wordWidth;
      } else {
        const pieces = breakWord(word, maxWidth, widthOf);
        line = pieces.pop() ?? "";
        lineWidth = widthOf(line);
        lines.push(...pieces);
      }
    }
    lines.push(line);
  }
  return lines;
}

let graphemes: Intl.Segmenter | undefined;

/**
 * Cuts a word too wide for a line into pieces that fit, at least one
 * character each: whole user-perceived characters, so that neither an emoji
 * sequence nor a letter with its marks is cut in two.
 */
function breakWord(
  word: string,
  maxWidth: number,
  widthOf: (text: string) => number,
): string[] {
  graphemes ??= new Intl.Segmenter("und", { granularity: "grapheme" });
  const pieces: string[] = [];
  let piece = "";
  for (const { segment: character } of graphemes.segment(word)) {
    if (piece && widthOf(piece + character) > maxWidth) {
      pieces.push(piece);
      piece = "";
    }
    piece += character;
  }
  pieces.push(piece);
  return pieces;
}
