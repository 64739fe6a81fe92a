import { expect } from "vitest";
import { ISSUE } from "../../fixtures/documents";
import { CATALOGS, documentWording } from "../../src/pdf/i18n";
import type { DocumentLocale } from "../../src/schemas/document-locale";
import { squeezeSpaces } from "./pdf-tools";

/**
 * Checks that each page's text (whitespace squeezed) has the frame every
 * page repeats, a demo's marks included, and returns the pages' text
 * without it, and without `repeated` (a table's running heading), as one
 * text: what the document prints, page breaks aside.
 */
export function contentWithoutFrames(
  pages: readonly string[],
  locale: DocumentLocale,
  { demo = false, repeated = [] as readonly string[] } = {},
): string {
  const { own, printed } = documentWording(locale);
  return squeezeSpaces(
    pages
      .map((text, index) => {
        const frame = [
          ...(demo ? ["DEMO", own.notValid] : []),
          own.title,
          CATALOGS.es.title,
          `${printed.page} ${index + 1}/${pages.length}`,
          `${printed.documentId}: ${ISSUE.uuid}`,
          squeezeSpaces(printed.legalBasis),
        ];
        for (const part of frame)
          expect(text, `page ${index + 1}`).toContain(part);
        // Longest first: the title is also the start of the legal basis.
        return [...frame, ...repeated]
          .sort((a, b) => b.length - a.length)
          .reduce((rest, part) => rest.split(part).join(" "), text);
      })
      .join(" "),
  );
}
