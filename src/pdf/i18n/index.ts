import type { DocumentLocale } from "../../schemas/document-locale";

export { CATALOGS } from "./catalogs";
export type { MessageKey, Messages } from "./messages";
export { MESSAGE_KEYS } from "./messages";
export { beside, type DocumentWording, documentWording } from "./wording";

/** BCP 47 tag of each locale, for the PDF's /Lang (read aloud by screen readers). */
export const LANGUAGE_TAGS: Readonly<Record<DocumentLocale, string>> = {
  es: "es-ES",
  ca: "ca-ES",
  gl: "gl-ES",
  "ca-valencia": "ca-ES-valencia",
  eu: "eu-ES",
  en: "en",
  "pt-pt": "pt-PT",
  fr: "fr",
};
