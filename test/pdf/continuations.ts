import { documentWording } from "../../src/pdf/i18n";
import type { DocumentLocale } from "../../src/schemas/document-locale";
import { escaped } from "./page-frames";
import { squeezeSpaces } from "./pdf-tools";

/** "continued on page N" in a locale's words (and the Spanish), N captured, anywhere in a text. */
function continuedOnPage(locale: DocumentLocale): RegExp {
  return new RegExp(
    escaped(documentWording(locale).printed.continuedOnPage).replaceAll(
      "\\{page\\}",
      "(\\d+)",
    ),
    "g",
  );
}

/**
 * Whether page 1 (the first of `contents`, each page's text without its
 * frame) prints the start of `text`, then "continued on page N", page N goes
 * on with the rest right after `heading`, and the pages after page 1 hold
 * that rest whole, their markers and running headings aside.
 */
export function cutOnPageOne(
  contents: readonly string[],
  text: string,
  heading: string,
  locale: DocumentLocale,
): boolean {
  const whole = squeezeSpaces(text);
  const first = contents[0] ?? "";
  // Where page 1 prints the start of the text, then "continued on page N",
  // and page N the rest under `heading` (a summary, or another text, may
  // start the same way).
  for (
    let start = first.indexOf(whole.slice(0, 30));
    start >= 0;
    start = first.indexOf(whole.slice(0, 30), start + 1)
  ) {
    const marker = continuedOnPage(locale);
    marker.lastIndex = start;
    const match = marker.exec(first);
    if (!match) continue;
    const part = first.slice(start, match.index).trim();
    const page = Number(match[1]);
    const rest = whole.slice(part.length).trim();
    if (
      part.length > 0 &&
      whole.startsWith(part) &&
      page > 1 &&
      contents[page - 1]?.includes(`${heading} ${rest.slice(0, 60)}`)
    ) {
      // Nothing lost at the cut or at later page breaks.
      const later = contents
        .slice(1)
        .join(" ")
        .replace(continuedOnPage(locale), " ")
        .replaceAll(heading, " ");
      return squeezeSpaces(later).includes(rest);
    }
  }
  return false;
}
