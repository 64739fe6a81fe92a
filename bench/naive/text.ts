import type { PDFPage } from "@cantoo/pdf-lib";
import type { TextStyle } from "../../src/pdf/styles";

/**
 * Draws one line of printable text through pdf-lib's `drawText`, in the line
 * box whose bottom edge is `bottom`, on the baseline that src/pdf's text
 * stream uses (a quarter of the leading above that edge).
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
