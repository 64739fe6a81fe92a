import type { PDFPage } from "@cantoo/pdf-lib";
import type { Line } from "../../src/pdf/lines";
import type { TextStyle } from "../../src/pdf/styles";

// Measuring and wrapping are the renderer's own; only drawing differs.
export { heightOf, type Line, wrappedLines } from "../../src/pdf/lines";

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
