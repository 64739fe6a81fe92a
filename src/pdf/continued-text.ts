import type { DocumentWording, MessageKey, Messages } from "./i18n";
import {
  drawLines,
  heightOf,
  type Line,
  linesWithin,
  wrappedLines,
} from "./lines";
import type { Block, PageMark } from "./page-flow";
import type { TextStyle, TextStyles } from "./styles";

// A text cut where a page ends, or where page 1 gives it no more room (docs/pdf.md,
// Page 1), says on which page it goes on, and goes on there under its own
// label, "(continued)".

/** The fewest lines of a text that a page ends or starts with. */
const MINIMUM_LINES = 2;

/** Laid out for three digits: the page number, known once the pages are, is no wider. */
const WIDEST_PAGE = "999";

/**
 * "continued on page N" in both languages, as lines of `style` in `width`;
 * N is the page `mark` is set to, read when the lines are drawn.
 */
export function continuedOnPage(
  printed: Messages,
  mark: PageMark,
  style: TextStyle,
  width: number,
): Line[] {
  const text = (page: string) =>
    printed.continuedOnPage.replaceAll("{page}", page);
  return wrappedLines(text(WIDEST_PAGE), style, width).map((line, index) => ({
    style: line.style,
    spaceBefore: line.spaceBefore,
    get text() {
      const page = String(mark.page ?? "");
      return wrappedLines(text(page), style, width)[index]?.text ?? "";
    },
  }));
}

/** "Observations (continued)", in the locale's words, then the Spanish. */
export function continuedTitle(
  { own, spanish }: DocumentWording,
  title: MessageKey,
): string {
  const inOwn = `${own[title]} (${own.continued})`;
  const inSpanish = spanish && `${spanish[title]} (${spanish.continued})`;
  return inSpanish && inSpanish !== inOwn ? `${inOwn} / ${inSpanish}` : inOwn;
}

/** How a text flows: where, in which words, and what starts a page that continues it. */
export interface TextFlow {
  column: { x: number; width: number };
  printed: Messages;
  styles: TextStyles;
  /** The "(continued)" heading. */
  head: Block;
}

/**
 * Lines of running text that break wherever a page ends: the part on the
 * page ends with "continued on page N", the rest starts the next page under
 * `flow.head`. `mark` is set to the page the text starts on.
 */
export function flowingText(
  lines: readonly Line[],
  flow: TextFlow,
  mark?: PageMark,
): Block {
  const marker = (next: PageMark) =>
    continuedOnPage(flow.printed, next, flow.styles.label, flow.column.width);
  const draw =
    (part: readonly Line[]): Block["draw"] =>
    (canvas, top) =>
      drawLines(canvas, part, flow.column, top);
  return {
    height: heightOf(lines),
    flows: true,
    leadHeight: heightOf(lines.slice(0, MINIMUM_LINES)) + heightOf(marker({})),
    mark,
    draw: draw(lines),
    split(room) {
      const next: PageMark = {};
      const end = marker(next);
      const count = linesWithin(lines, room - heightOf(end));
      if (count < MINIMUM_LINES || count >= lines.length) return null;
      const first = [...lines.slice(0, count), ...end];
      return [
        { height: heightOf(first), mark, draw: draw(first) },
        {
          ...flowingText(lines.slice(count), flow, next),
          runningHead: flow.head,
        },
      ];
    },
  };
}
