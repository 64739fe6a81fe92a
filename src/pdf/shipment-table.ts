import { printable } from "./fonts";
import type { Messages } from "./i18n";
import { drawLines, heightOf, type Line, wrappedLines } from "./lines";
import type { Block } from "./page-flow";
import type { PrintedData, PrintedShipment } from "./printed-fields";
import { COLORS, CONTENT_WIDTH, PAGE, type TextStyles } from "./styles";

// The shipments of a grouped document as a numbered table (docs/pdf.md,
// Grouped documents): one row a shipment, its origin and destination with
// their places in bold, its goods with the weight or measure under them.

const CELL_GAP = 8;
const ROW_PADDING = 4;
const HEADING_GAP = 4;
/** The fewest lines of a row that a page ends or starts with. */
const MINIMUM_LINES = 2;
const NUMBER_WIDTH = 22;
const LOCATION_WIDTH = 128;
const GOODS_WIDTH =
  CONTENT_WIDTH - NUMBER_WIDTH - 2 * LOCATION_WIDTH - 3 * CELL_GAP;

interface Column {
  x: number;
  width: number;
}

/** Number, origin, destination, goods: left to right, and in reading order. */
const COLUMNS: readonly Column[] = [
  NUMBER_WIDTH,
  LOCATION_WIDTH,
  LOCATION_WIDTH,
  GOODS_WIDTH,
].map((width, index, widths) => ({
  x: PAGE.margin + widths.slice(0, index).reduce((x, w) => x + w + CELL_GAP, 0),
  width,
}));

/** Cells of lines side by side, each in its column, `padding` above and below. */
function cellsBlock(
  cells: readonly (readonly Line[])[],
  padding: number,
  ruleAbove: boolean,
): Block {
  return {
    height: 2 * padding + Math.max(...cells.map(heightOf)),
    draw(canvas, top) {
      if (ruleAbove) {
        canvas.page.drawLine({
          start: { x: PAGE.margin, y: top },
          end: { x: PAGE.margin + CONTENT_WIDTH, y: top },
          thickness: 0.5,
          color: COLORS.rule,
        });
      }
      cells.forEach((cell, index) => {
        drawLines(canvas, cell, COLUMNS[index] as Column, top - padding);
      });
    },
  };
}

/** How many of `lines` fit in `height`, from the first. */
function linesWithin(lines: readonly Line[], height: number): number {
  let used = 0;
  let count = 0;
  for (const line of lines) {
    used += (line.spaceBefore ?? 0) + line.style.leading;
    if (used > height) break;
    count++;
  }
  return count;
}

/**
 * A shipment's row. A row taller than a page (the longest texts) splits
 * between lines, at least two lines of it on a page; its rest carries no
 * rule above it, so that it reads as the same row.
 */
function rowBlock(
  cells: readonly (readonly Line[])[],
  head: Block,
  first = true,
): Block {
  return {
    ...cellsBlock(cells, ROW_PADDING, first),
    runningHead: head,
    split(height) {
      const counts = cells.map((cell) =>
        linesWithin(cell, height - 2 * ROW_PADDING),
      );
      if (Math.max(...counts) < MINIMUM_LINES) return null;
      return [
        rowBlock(
          cells.map((cell, index) => cell.slice(0, counts[index])),
          head,
          first,
        ),
        rowBlock(
          cells.map((cell, index) => cell.slice(counts[index])),
          head,
          false,
        ),
      ];
    },
  };
}

/** The table of a grouped document's shipments, and its total weight. */
export function shipmentTable(
  printed: PrintedData,
  messages: Messages,
  styles: TextStyles,
  heading: (title: string) => Line[],
): Block[] {
  const wrap = (text: string, style: keyof TextStyles, column: number) =>
    wrappedLines(text, styles[style], (COLUMNS[column] as Column).width);
  const columnTitles = cellsBlock(
    [
      wrap(messages.shipmentNumber, "label", 0),
      wrap(messages.origin, "label", 1),
      wrap(messages.destination, "label", 2),
      [
        ...wrap(messages.description, "label", 3),
        ...wrap(messages.weightOrMeasure, "label", 3),
      ],
    ],
    HEADING_GAP,
    false,
  );
  const titled = (title: string): Block => {
    const lines = heading(title);
    return {
      height: heightOf(lines) + columnTitles.height,
      keepWithNext: true,
      draw(canvas, top) {
        drawLines(canvas, lines, COLUMNS[0] as Column, top);
        columnTitles.draw(canvas, top - heightOf(lines));
      },
    };
  };
  const runningHead = titled(messages.shipmentsContinued);
  const value = (text: string, column: number) =>
    wrap(printable(text), "value", column);
  const place = (
    text: string | null,
    address: string | null,
    column: number,
  ) => [
    ...wrap(printable(text ?? ""), "emphasis", column),
    ...value(address ?? "", column),
  ];
  const quantity = (shipment: PrintedShipment) =>
    shipment["goods.weight_kg"] ?? shipment["goods.alternative_measure"] ?? "—";
  const rows = printed.shipments.map((shipment, index) =>
    rowBlock(
      [
        wrap(String(index + 1), "emphasis", 0),
        place(shipment["origin.place"], shipment["origin.address"], 1),
        place(
          shipment["destination.place"],
          shipment["destination.address"],
          2,
        ),
        [
          ...value(shipment["goods.description"] ?? "", 3),
          ...wrap(printable(quantity(shipment)), "emphasis", 3).map(
            (line, lineIndex) =>
              lineIndex === 0 ? { ...line, spaceBefore: 2 } : line,
          ),
        ],
      ],
      runningHead,
    ),
  );
  return [
    titled(messages.shipments),
    ...rows,
    ...(printed.totalWeight
      ? [totalBlock(printed.totalWeight, messages, styles)]
      : []),
  ];
}

/** The total weight, under the goods column, a rule above it closing the table. */
function totalBlock(
  total: string,
  messages: Messages,
  styles: TextStyles,
): Block {
  const goods = COLUMNS[3] as Column;
  const lines = [
    ...wrappedLines(messages.totalWeight, styles.label, goods.width),
    ...wrappedLines(total, styles.emphasis, goods.width),
  ];
  return cellsBlock([[], [], [], lines], ROW_PADDING, true);
}
