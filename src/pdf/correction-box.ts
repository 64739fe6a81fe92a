import { isVehicleChange } from "./changed-fields";
import { changeItem } from "./field-names";
import { printable } from "./fonts";
import type { DocumentWording } from "./i18n";
import { drawLines, heightOf, type Line, wrappedLines } from "./lines";
import type { Block } from "./page-flow";
import type { PrintedDocument } from "./printed-document";
import { COLORS, PAGE, type TextStyles } from "./styles";

const BOX_PADDING = 6;
const BULLET = "•";
/** Where a list item's text starts, right of its bullet, on every line it wraps to. */
const HANGING_INDENT = 10;

/** Lines of the box: a heading line, or one item of the list, drawn after a bullet. */
interface Row {
  lines: Line[];
  item: boolean;
  /** The list's title: a part of the box never ends with it. */
  keepWithNext?: boolean;
}

const rowsHeight = (rows: readonly Row[]): number =>
  rows.reduce((sum, row) => sum + heightOf(row.lines), 0);

/**
 * A correction says, in a tinted box `width` wide at the left margin, which
 * version it rectifies (its reference, when it has one, and its uuid), that
 * the vehicle changed (art. 6 g of Orden FOM/2861/2012 asks that it be
 * recorded: first), then lists each change, `label: old → new`, the changes
 * of vehicle first. Labels print as every label does (the document's
 * language, then the Spanish), the texts once. The box splits between items.
 */
export function rectificationBox(
  { uuid, reference, changes }: NonNullable<PrintedDocument["rectifies"]>,
  wording: DocumentWording,
  styles: TextStyles,
  width: number,
): Block {
  const { printed } = wording;
  const inner = width - 2 * BOX_PADDING;
  const heading = (text: string, style = styles.emphasis): Row => ({
    lines: wrappedLines(text, style, inner),
    item: false,
  });
  const version =
    reference === null ? uuid : `${printable(reference)} (${uuid})`;
  const vehicle = changes.filter(isVehicleChange);
  const listed = [
    ...vehicle,
    ...changes.filter((change) => !isVehicleChange(change)),
  ];
  // What the first part of a split box holds at least.
  const lead = [
    heading(`${printed.rectifies} ${version}`),
    ...(vehicle.length > 0 ? [heading(printed.changeOfVehicle)] : []),
  ];
  const rows = [
    ...lead,
    listed.length === 0
      ? heading(printed.noChanges, styles.value)
      : { ...heading(printed.changes, styles.label), keepWithNext: true },
    ...listed.map((change) => ({
      lines: wrappedLines(
        changeItem(wording, change),
        styles.value,
        inner - HANGING_INDENT,
      ),
      item: true,
    })),
  ];
  return box(rows, lead.length, width, heading(printed.rectificationContinued));
}

/**
 * The box of `rows`; split, its first part holds at least the `lead` rows
 * and ends after the last row that fits (the list's title never ends it),
 * and the rest starts with `continued`. Its `leadHeight` is the least
 * that its first part holds.
 */
function box(
  rows: readonly Row[],
  lead: number,
  width: number,
  continued: Row,
): Block {
  const height = rowsHeight(rows) + 2 * BOX_PADDING;
  return {
    height,
    leadHeight: rowsHeight(rows.slice(0, lead)) + 2 * BOX_PADDING,
    split(room) {
      let end = 0;
      let used = 2 * BOX_PADDING;
      for (const row of rows) {
        used += heightOf(row.lines);
        if (used > room) break;
        end++;
      }
      while (end > 0 && rows[end - 1]?.keepWithNext) end--;
      if (end < lead || end === rows.length) return null;
      return [
        box(rows.slice(0, end), lead, width, continued),
        // "(continued)" and what it continues.
        box([continued, ...rows.slice(end)], 2, width, continued),
      ];
    },
    draw(canvas, top) {
      canvas.page.drawRectangle({
        x: PAGE.margin,
        y: top - height,
        width,
        height,
        color: COLORS.highlight,
        borderColor: COLORS.accent,
        borderWidth: 0.8,
      });
      const x = PAGE.margin + BOX_PADDING;
      const inner = width - 2 * BOX_PADDING;
      let rowTop = top - BOX_PADDING;
      for (const { lines, item } of rows) {
        if (item) {
          const [first] = lines;
          if (first) {
            const bullet = { text: BULLET, style: first.style };
            drawLines(canvas, [bullet], { x, width: HANGING_INDENT }, rowTop);
          }
          drawLines(
            canvas,
            lines,
            { x: x + HANGING_INDENT, width: inner - HANGING_INDENT },
            rowTop,
          );
        } else drawLines(canvas, lines, { x, width: inner }, rowTop);
        rowTop -= heightOf(lines);
      }
    },
  };
}
