import type { DocumentLocale } from "../../schemas/document-locale";
import { CATALOGS } from "./catalogs";
import { MESSAGE_KEYS, type Messages } from "./messages";

/**
 * The texts of a document. Any Spanish inspector must read any document
 * (docs/api.md, The PDF), so every locale other than `es` prints the Spanish beside
 * its own text.
 */
export interface DocumentWording {
  /** The locale's own texts. */
  own: Messages;
  /** The Spanish texts, or null for a Spanish document. */
  spanish: Messages | null;
  /**
   * Each text as printed: the locale's, then the Spanish after a slash where
   * it differs; the legal basis, a paragraph, as two paragraphs.
   */
  printed: Messages;
}

/** The locale's text with the Spanish after a slash, once if they are the same. */
export const beside = (own: string, spanish: string | null): string =>
  spanish === null || own === spanish ? own : `${own} / ${spanish}`;

function wordingOf(locale: DocumentLocale): DocumentWording {
  const own = CATALOGS[locale];
  const spanish = locale === "es" ? null : CATALOGS.es;
  const printed = Object.fromEntries(
    MESSAGE_KEYS.map((key) => [key, beside(own[key], spanish?.[key] ?? null)]),
  ) as Record<keyof Messages, string>;
  if (spanish) printed.legalBasis = `${own.legalBasis}\n${spanish.legalBasis}`;
  return { own, spanish, printed };
}

const WORDINGS = new Map<DocumentLocale, DocumentWording>();

export function documentWording(locale: DocumentLocale): DocumentWording {
  let wording = WORDINGS.get(locale);
  if (!wording) {
    wording = wordingOf(locale);
    WORDINGS.set(locale, wording);
  }
  return wording;
}
