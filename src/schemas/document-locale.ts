import * as z from "zod";

/** Languages a PDF can be printed in (docs/api.md, Document result). */
export const DOCUMENT_LOCALES = [
  "es",
  "ca",
  "gl",
  "ca-valencia",
  "eu",
  "en",
  "pt-pt",
  "fr",
] as const;

export type DocumentLocale = (typeof DOCUMENT_LOCALES)[number];

export const documentLocaleSchema = z.enum(DOCUMENT_LOCALES, {
  message: `Must be one of ${DOCUMENT_LOCALES.join(", ")}.`,
});

export const isDocumentLocale = (value: string): value is DocumentLocale =>
  (DOCUMENT_LOCALES as readonly string[]).includes(value);
