import { printable } from "./fonts";
import type { Messages } from "./i18n";
import {
  drawLines,
  heightOf,
  type Line,
  linesWithin,
  wrappedLines,
} from "./lines";
import type { Block } from "./page-flow";
import {
  NOT_GIVEN,
  type PrintedData,
  type PrintedShipment,
  runOn,
  type ShipmentField,
} from "./printed-fields";
import { COLORS, CONTENT_WIDTH, PAGE, type TextStyles } from "./styles";

// The shipments of a grouped document as a numbered table (docs/pdf.md,
// Grouped documents). A row has two bands: the number, the origin and the
// destination, then under them the goods and their weight or measure. Each
// band fits on a page even with the longest texts, and a row breaks only
// between them, so that every text reads whole on one page.

const CELL_GAP = 8;
const ROW_PADDING = 4;
/** Above and below each line of column titles. */
const TITLE_PADDING = 2;
/** The fewest lines a page ends or starts with when a band taller than a page splits. */
const MINIMUM_LINES = 2;
const NUMBER_WIDTH = 32;
const QUANTITY_WIDTH = 100;

interface Column {
  x: number;
  width: number;
}

const columns = (x: number, widths: readonly number[]): Column[] =>
  widths.map((width, index) => ({
    x: x + widths.slice(0, index).reduce((sum, w) => sum + w + CELL_GAP, 0),
    width,
  }));

const INNER_X = PAGE.margin + NUMBER_WIDTH + CELL_GAP;
const INNER_WIDTH = CONTENT_WIDTH - NUMBER_WIDTH - CELL_GAP;
const HALF = (INNER_WIDTH - CELL_GAP) / 2;
/** Number, origin, destination. */
const PLACES = columns(PAGE.margin, [NUMBER_WIDTH, HALF, HALF]);
/** Under origin and destination: the goods, their weight or measure. */
const GOODS = columns(INNER_X, [
  INNER_WIDTH - CELL_GAP - QUANTITY_WIDTH,
  QUANTITY_WIDTH,
]);

/** Cells of lines side by side, each in its column, `padding` above and below. */
function cellsBlock(
  band: readonly Column[],
  cells: readonly (readonly Line[])[],
  padding: number,
  ruleAbove = false,
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
        drawLines(canvas, cell, band[index] as Column, top - padding);
      });
    },
  };
}

/**
 * The goods band of a row. Taller than a page (the longest description in
 * wide characters), it splits between lines.
 */
function goodsBand(cells: readonly (readonly Line[])[], head: Block): Block {
  return {
    ...cellsBlock(GOODS, cells, 0),
    runningHead: head,
    split(height) {
      const counts = cells.map((cell) => linesWithin(cell, height));
      if (Math.max(...counts) < MINIMUM_LINES) return null;
      return [
        goodsBand(
          cells.map((cell, index) => cell.slice(0, counts[index])),
          head,
        ),
        goodsBand(
          cells.map((cell, index) => cell.slice(counts[index])),
          head,
        ),
      ];
    },
  };
}

/** Cuts a text of the first row on page 1, saying where it goes on. */
export type CutCell = (
  lines: Line[],
  field: ShipmentField,
  width: number,
) => Line[];

/** A grouped document's table, in two parts: page 1 holds its start. */
export interface ShipmentTable {
  /** Its heading, its column titles and its first row, each text cut by `cut`. */
  start(cut?: CutCell): Block[];
  /** The other rows and the total weight, under the running head when `headed`. */
  rest(headed: boolean): Block[];
}

/** The table of a grouped document's shipments, and its total weight. */
export function shipmentTable(
  printed: PrintedData,
  messages: Messages,
  styles: TextStyles,
  heading: (title: string) => Line[],
): ShipmentTable {
  const wrap = (text: string, style: keyof TextStyles, column: Column) =>
    wrappedLines(text, styles[style], column.width);
  const [numberColumn, origin, destination] = PLACES as [
    Column,
    Column,
    Column,
  ];
  const [goods, quantity] = GOODS as [Column, Column];
  const titles = [
    cellsBlock(
      PLACES,
      [
        wrap(messages.shipmentNumber, "label", numberColumn),
        wrap(messages.origin, "label", origin),
        wrap(messages.destination, "label", destination),
      ],
      TITLE_PADDING,
    ),
    cellsBlock(
      GOODS,
      [
        wrap(messages.description, "label", goods),
        wrap(messages.weightOrMeasure, "label", quantity),
      ],
      TITLE_PADDING,
    ),
  ];
  const titled = (title: string): Block => {
    const lines = heading(title);
    const [places, goodsTitles] = titles as [Block, Block];
    return {
      height: heightOf(lines) + places.height + goodsTitles.height,
      keepWithNext: true,
      draw(canvas, top) {
        drawLines(canvas, lines, { x: PAGE.margin, width: CONTENT_WIDTH }, top);
        places.draw(canvas, top - heightOf(lines));
        goodsTitles.draw(canvas, top - heightOf(lines) - places.height);
      },
    };
  };
  const runningHead = titled(messages.shipmentsContinued);
  const whole: CutCell = (lines) => lines;
  const row = (
    shipment: PrintedShipment,
    index: number,
    cut = whole,
  ): Block[] => {
    const text = (
      field: ShipmentField,
      style: keyof TextStyles,
      column: Column,
      printedText = shipment[field] ?? "",
    ) => cut(wrap(printable(printedText), style, column), field, column.width);
    // The address on as few lines as the column allows.
    const location = (
      place: ShipmentField,
      address: ShipmentField,
      column: Column,
    ) => [
      ...text(place, "emphasis", column),
      ...text(address, "value", column, runOn(shipment[address] ?? "")),
    ];
    const measured =
      shipment["goods.weight_kg"] !== null
        ? "goods.weight_kg"
        : "goods.alternative_measure";
    return [
      {
        ...cellsBlock(
          PLACES,
          [
            wrap(String(index + 1), "emphasis", numberColumn),
            location("origin.place", "origin.address", origin),
            location("destination.place", "destination.address", destination),
          ],
          ROW_PADDING,
          true,
        ),
        keepWithNext: true,
        runningHead,
      },
      goodsBand(
        [
          text("goods.description", "value", goods),
          text(measured, "emphasis", quantity, quantityOf(shipment)),
        ],
        runningHead,
      ),
    ];
  };
  const [first, ...others] = printed.shipments as [
    PrintedShipment,
    ...PrintedShipment[],
  ];
  return {
    start: (cut) => [titled(messages.shipments), ...row(first, 0, cut)],
    rest(headed) {
      const rows = others.flatMap((shipment, index) =>
        row(shipment, index + 1),
      );
      const head = headed ? [runningHead] : [];
      if (!printed.totalWeight) return [...head, ...rows];
      // The total goes to the next page with the last row rather than alone.
      const last = rows.pop() as Block;
      return [
        ...head,
        ...rows,
        { ...last, keepWithNext: true },
        { ...totalBlock(printed.totalWeight, messages, styles), runningHead },
      ];
    },
  };
}

/** The weight, or the other measure when the goods have none. */
const quantityOf = (shipment: PrintedShipment): string =>
  shipment["goods.weight_kg"] ??
  shipment["goods.alternative_measure"] ??
  NOT_GIVEN;

/** The total weight, under the weights, a rule above it closing the table. */
function totalBlock(
  total: string,
  messages: Messages,
  styles: TextStyles,
): Block {
  const column = GOODS[1] as Column;
  return cellsBlock(
    GOODS,
    [
      [],
      [
        ...wrappedLines(messages.totalWeight, styles.label, column.width),
        ...wrappedLines(total, styles.emphasis, column.width),
      ],
    ],
    ROW_PADDING,
    true,
  );
}
