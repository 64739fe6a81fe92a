import { expect } from "vitest";
import { FULL_DOCUMENT, ISSUE } from "../../fixtures/documents";
import { CATALOGS, documentWording } from "../../src/pdf/i18n";
import { markingOf } from "../../src/pdf/page-frame";
import type { DocumentLocale } from "../../src/schemas/document-locale";
import type { Environment } from "../../src/schemas/environment";
import { squeezeSpaces } from "./pdf-tools";

interface FrameOptions {
  environment?: Environment;
  /** A table's running heading, taken out too. */
  repeated?: readonly string[];
  /** The document's reference, which the header may cut with an ellipsis. */
  reference?: string | null;
}

/** `text` matched literally in a regular expression. */
export const escaped = (text: string): string =>
  text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Checks that each page's text (whitespace squeezed) has the frame every
 * page repeats, a test or demo document's marks included, and returns each page's text
 * without it, and without `repeated`.
 */
export function pageContents(
  pages: readonly string[],
  locale: DocumentLocale,
  {
    environment = "live",
    repeated = [],
    reference = FULL_DOCUMENT.reference,
  }: FrameOptions = {},
): string[] {
  const wording = documentWording(locale);
  const { own, printed } = wording;
  const marking = markingOf(environment, wording);
  return pages.map((text, index) => {
    const frame = [
      ...(marking ? [marking.word, marking.notValid] : []),
      own.title,
      CATALOGS.es.title,
      `${printed.page} ${index + 1}/${pages.length}`,
      `${printed.documentId}: ${ISSUE.uuid}`,
      squeezeSpaces(printed.legalBasis),
    ];
    for (const part of frame) expect(text, `page ${index + 1}`).toContain(part);
    // A reference has no spaces: the header's is one word, cut or not. Page
    // 1 prints it under the key facts instead, with the content.
    const headerReference = new RegExp(
      `${escaped(`${printed.reference}: ${(reference ?? "—").slice(0, 12)}`)}\\S*`,
    );
    if (index > 0) expect(text, `page ${index + 1}`).toMatch(headerReference);
    else expect(text, "page 1").not.toMatch(headerReference);
    // Longest first: the title is also the start of the legal basis.
    return squeezeSpaces(
      [...frame, ...repeated]
        .sort((a, b) => b.length - a.length)
        .reduce(
          (rest, part) => rest.split(part).join(" "),
          text.replace(headerReference, " "),
        ),
    );
  });
}

/** The pages' text without their frames, as one text: what the document prints, page breaks aside. */
export const contentWithoutFrames = (
  pages: readonly string[],
  locale: DocumentLocale,
  options: FrameOptions = {},
): string => squeezeSpaces(pageContents(pages, locale, options).join(" "));
