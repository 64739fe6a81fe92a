import type { PDFPage } from "@cantoo/pdf-lib";
import { type TextStyle, widthIn } from "../../src/pdf/styles";
import { wrapText } from "../../src/pdf/text-wrap";

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

/** Draws lines downwards from `top`, in a column `width` wide at `x`. */
export function drawLines(
  page: PDFPage,
  lines: readonly Line[],
  column: { x: number; width: number },
  top: number,
): void {
  let bottom = top;
  for (const line of lines) {
    bottom -= (line.spaceBefore ?? 0) + line.style.leading;
    drawText(page, line.text, line.style, column.x, bottom);
    if (line.underlined) {
      page.drawLine({
        start: { x: column.x, y: bottom - 0.5 },
        end: { x: column.x + column.width, y: bottom - 0.5 },
        thickness: 0.6,
        color: line.style.color,
      });
    }
  }
}

/**
 * Draws one line of printable text in the line box whose bottom edge is
 * `bottom`. The baseline sits a quarter of the leading above that edge, which
 * leaves room for descenders.
 */
export function drawText(
  page: PDFPage,
  text: string,
  style: TextStyle,
  x: number,
  bottom: number,
): void {
  if (!text) return;
  page.drawText(text, {
    x,
    y: bottom + style.leading * 0.25,
    font: style.font,
    size: style.size,
    color: style.color,
  });
}

/** pdf-lib's drawing calls write as they go: nothing is left to finish. */
export function finishText(_page: PDFPage): void {}
