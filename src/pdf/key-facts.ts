import type { PageCanvas } from "./drawing";
import { TOWARDS } from "./field-names";
import { printable } from "./fonts";
import type { Messages } from "./i18n";
import {
  clippedLines,
  drawLines,
  heightOf,
  type Line,
  wrappedLines,
} from "./lines";
import { NOT_GIVEN, type PrintedData } from "./printed-fields";
import { COLORS, type TextStyle, type TextStyles, widthIn } from "./styles";

// The band of key facts at the top of page 1 (docs/pdf.md, Page 1): what an
// inspector checks first, in large type, each fact a printed text of the
// table of printed fields. The registrations print only here, whole; the
// date too; the weight or measure and the route also print in their
// sections, whole, so that a value too long for the band ends in an
// ellipsis here.

const PADDING = 6;
const CELL_GAP = 12;
const ROW_GAP = 4;
/** Lines of a summary value at most: a weight takes one, a route two. */
const SUMMARY_LINES = 2;

interface Fact {
  label: string;
  /** Its lines in the band, `width` wide. */
  lines(style: TextStyle, width: number): Line[];
}

/** A fact whose value is printed whole, or nothing. */
const fact = (label: string, value: string | null): Fact[] =>
  value === null
    ? []
    : [
        {
          label,
          lines: (style, width) => wrappedLines(printable(value), style, width),
        },
      ];

/** A fact printed whole in its section: the band may cut it. */
const summary = (label: string, value: string | null): Fact[] =>
  value === null
    ? []
    : [
        {
          label,
          lines: (style, width) =>
            clippedLines(printable(value), style, width, SUMMARY_LINES),
        },
      ];

/**
 * Origin → destination on two lines at most; places too long for that, each
 * on a line of its own, cut.
 */
const route = (label: string, origin: string, destination: string): Fact => ({
  label,
  lines(style, width) {
    const whole = wrappedLines(
      printable(`${origin}${TOWARDS}${destination}`),
      style,
      width,
    );
    if (whole.length <= SUMMARY_LINES) return whole;
    const towards = TOWARDS.trimEnd();
    const from = clippedLines(
      printable(origin),
      style,
      width - widthIn(towards, style),
      1,
    ).map((line) => ({ ...line, text: `${line.text}${towards}` }));
    return [...from, ...clippedLines(printable(destination), style, width, 1)];
  },
});

/**
 * The facts, row by row: the vehicle and its trailer, the transport date and
 * the weight or measure (a grouped document's total weight), then the route
 * across the band: a grouped document's first origin and last destination,
 * after the number of its shipments.
 */
function factRows(printed: PrintedData, messages: Messages): Fact[][] {
  const { fields, shipments, grouped } = printed;
  const first = shipments[0] as PrintedData["shipments"][number];
  const last = shipments.at(-1) as PrintedData["shipments"][number];
  const quantity = grouped
    ? summary(messages.totalWeight, printed.totalWeight)
    : first["goods.weight_kg"] !== null
      ? summary(messages.weight, first["goods.weight_kg"])
      : summary(
          messages.alternativeMeasure,
          first["goods.alternative_measure"],
        );
  return [
    [
      ...fact(messages.vehicle, fields["vehicle.registration"]),
      ...fact(
        messages.trailer,
        fields["vehicle.trailer_registration"] ?? NOT_GIVEN,
      ),
    ],
    [...fact(messages.transportDate, fields.transport_date), ...quantity],
    [
      route(
        grouped
          ? `${messages.route} · ${messages.shipments}: ${shipments.length}`
          : messages.route,
        first["origin.place"] ?? "",
        last["destination.place"] ?? "",
      ),
    ],
  ];
}

export interface KeyFactsBand {
  height: number;
  draw(canvas: PageCanvas, x: number, top: number): void;
}

/** The band, `width` wide: two facts side by side a row, the route across. */
export function keyFactsBand(
  printed: PrintedData,
  messages: Messages,
  styles: TextStyles,
  width: number,
): KeyFactsBand {
  const inner = width - 2 * PADDING;
  const rows = factRows(printed, messages).map((facts, index, all) => {
    const cellWidth = index === all.length - 1 ? inner : (inner - CELL_GAP) / 2;
    const cells: Line[][] = facts.map(({ label, lines }) => [
      ...wrappedLines(label, styles.label, cellWidth),
      ...lines(styles.keyFact, cellWidth),
    ]);
    return { cellWidth, cells, height: Math.max(...cells.map(heightOf)) };
  });
  const height =
    2 * PADDING +
    rows.reduce((sum, row) => sum + row.height, 0) +
    ROW_GAP * (rows.length - 1);
  return {
    height,
    draw(canvas, x, top) {
      canvas.page.drawRectangle({
        x,
        y: top - height,
        width,
        height,
        color: COLORS.highlight,
      });
      let rowTop = top - PADDING;
      for (const { cellWidth, cells, height: rowHeight } of rows) {
        cells.forEach((cell, index) => {
          const cellX = x + PADDING + index * (cellWidth + CELL_GAP);
          drawLines(canvas, cell, { x: cellX, width: cellWidth }, rowTop);
        });
        rowTop -= rowHeight + ROW_GAP;
      }
    },
  };
}
