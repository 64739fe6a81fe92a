import type { PageCanvas } from "./drawing";
import { type TextStyle, widthIn } from "./styles";
import { wrapText } from "./text-wrap";

/** One printed line of text. */
export interface Line {
  text: string;
  style: TextStyle;
  /** Extra space above the line, in points. */
  spaceBefore?: number;
  /** A section heading: underlined across the width of its column. */
  underlined?: boolean;
}

/** Printable text wrapped to `width`, as lines of one style. */
export const wrappedLines = (
  text: string,
  style: TextStyle,
  width: number,
  spaceBefore = 0,
): Line[] =>
  wrapText(text, width, (piece) => widthIn(piece, style)).map(
    (line, index) => ({
      text: line,
      style,
      spaceBefore: index === 0 ? spaceBefore : 0,
    }),
  );

/** The height that lines take, from the top of the first to the bottom of the last. */
export const heightOf = (lines: readonly Line[]): number =>
  lines.reduce(
    (sum, line) => sum + (line.spaceBefore ?? 0) + line.style.leading,
    0,
  );

/** How many of `lines` fit in `height`, from the first. */
export function linesWithin(lines: readonly Line[], height: number): number {
  let used = 0;
  let count = 0;
  for (const line of lines) {
    used += (line.spaceBefore ?? 0) + line.style.leading;
    if (used > height) break;
    count++;
  }
  return count;
}

/** Draws lines downwards from `top`, in a column `width` wide at `x`. */
export function drawLines(
  canvas: PageCanvas,
  lines: readonly Line[],
  column: { x: number; width: number },
  top: number,
): void {
  let bottom = top;
  for (const line of lines) {
    bottom -= (line.spaceBefore ?? 0) + line.style.leading;
    canvas.text(line.text, line.style, column.x, bottom);
    if (line.underlined) {
      canvas.page.drawLine({
        start: { x: column.x, y: bottom - 0.5 },
        end: { x: column.x + column.width, y: bottom - 0.5 },
        thickness: 0.6,
        color: line.style.color,
      });
    }
  }
}

const ELLIPSIS = "…";

/**
 * Printable text wrapped to `width` in at most `maxLines` lines, the last one
 * ending in an ellipsis when the text goes on, cut anywhere (a reference is
 * one word): for a summary of a text that prints whole elsewhere.
 */
export function clippedLines(
  text: string,
  style: TextStyle,
  width: number,
  maxLines: number,
): Line[] {
  const lines = wrappedLines(text, style, width);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines - 1);
  const characters = Array.from(
    lines
      .slice(maxLines - 1)
      .map((line) => line.text)
      .join(" "),
  );
  const withEllipsis = () => `${characters.join("").trimEnd()}${ELLIPSIS}`;
  while (characters.length > 0 && widthIn(withEllipsis(), style) > width) {
    characters.pop();
  }
  const spaceBefore = lines[maxLines - 1]?.spaceBefore ?? 0;
  return [...kept, { text: withEllipsis(), style, spaceBefore }];
}
