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

/** Full-width lines that may flow onto the next page, one line per block. */
export const flowingBlocks = (lines: readonly Line[]): Block[] =>
  lines.map((line) => linesBlock([line]));

/** Two columns side by side, never split; as tall as the taller one. */
export const columnsBlock = (
  left: readonly Line[],
  right: readonly Line[],
): Block => ({
  height: Math.max(heightOf(left), heightOf(right)),
  draw: (canvas, top) => {
    drawLines(canvas, left, { x: PAGE.margin, width: HALF_WIDTH }, top);
    drawLines(
      canvas,
      right,
      { x: PAGE.margin + HALF_WIDTH + COLUMN_GAP, width: HALF_WIDTH },
      top,
    );
  },
});
