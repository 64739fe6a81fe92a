import type { PageCanvas } from "./drawing";
import { drawLines, heightOf, type Line } from "./lines";
import type { Block } from "./page-flow";
import { CONTENT_WIDTH, PAGE } from "./styles";

export const COLUMN_GAP = 20;
/** Width of one of two side-by-side columns. */
export const HALF_WIDTH = (CONTENT_WIDTH - COLUMN_GAP) / 2;

const FULL_WIDTH = { x: PAGE.margin, width: CONTENT_WIDTH };

/** Lines across the full width, never split. */
export const linesBlock = (
  lines: readonly Line[],
  keepWithNext = false,
): Block => ({
  height: heightOf(lines),
  keepWithNext,
  draw: (canvas, top) => drawLines(canvas, lines, FULL_WIDTH, top),
});

/** Draws two columns side by side across `area`, the column gap between them. */
function drawColumns(
  canvas: PageCanvas,
  left: readonly Line[],
  right: readonly Line[],
  area: { x: number; width: number },
  top: number,
): void {
  const width = (area.width - COLUMN_GAP) / 2;
  drawLines(canvas, left, { x: area.x, width }, top);
  drawLines(canvas, right, { x: area.x + width + COLUMN_GAP, width }, top);
}

/** Two columns side by side, never split; as tall as the taller one. */
export const columnsBlock = (
  left: readonly Line[],
  right: readonly Line[],
): Block => ({
  height: Math.max(heightOf(left), heightOf(right)),
  draw: (canvas, top) => drawColumns(canvas, left, right, FULL_WIDTH, top),
});
