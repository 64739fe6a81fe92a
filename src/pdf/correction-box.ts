import { changesVehicle } from "./changed-fields";
import { changeList } from "./field-names";
import type { DocumentWording } from "./i18n";
import { drawLines, heightOf, wrappedLines } from "./lines";
import type { Block } from "./page-flow";
import type { PrintedDocument } from "./printed-document";
import { COLORS, PAGE, type TextStyles } from "./styles";

const BOX_PADDING = 6;

/**
 * A correction says, in a tinted box `width` wide at the left margin, which
 * document it rectifies and what it changed on the page (a change of
 * vehicle first: art. 6 g of Orden FOM/2861/2012 asks that it be recorded),
 * the list in the document's language, then in Spanish.
 */
export function rectificationBox(
  { uuid, changes }: NonNullable<PrintedDocument["rectifies"]>,
  { own, spanish, printed }: DocumentWording,
  styles: TextStyles,
  width: number,
): Block {
  const inner = width - 2 * BOX_PADDING;
  const lines = [
    ...wrappedLines(`${printed.rectifies} ${uuid}`, styles.emphasis, inner),
    ...(changesVehicle(changes)
      ? wrappedLines(printed.changeOfVehicle, styles.emphasis, inner)
      : []),
    ...(changes.length === 0
      ? wrappedLines(printed.noChanges, styles.value, inner)
      : [
          ...wrappedLines(changeList(own, changes), styles.value, inner),
          ...(spanish
            ? wrappedLines(changeList(spanish, changes), styles.small, inner)
            : []),
        ]),
  ];
  const height = heightOf(lines) + 2 * BOX_PADDING;
  return {
    height,
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
      drawLines(
        canvas,
        lines,
        { x: PAGE.margin + BOX_PADDING, width: inner },
        top - BOX_PADDING,
      );
    },
  };
}
