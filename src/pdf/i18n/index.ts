import type { DocumentLocale } from "../../schemas/document-locale";
import { ca } from "./ca";
import { caValencia } from "./ca-valencia";
import { en } from "./en";
import { es } from "./es";
import { eu } from "./eu";
import { fr } from "./fr";
import { gl } from "./gl";
import type { Messages } from "./messages";
import { ptPt } from "./pt-pt";

export type { MessageKey, Messages } from "./messages";
export { MESSAGE_KEYS } from "./messages";

/** The catalog of each locale: a locale without one does not compile. */
export const CATALOGS: Readonly<Record<DocumentLocale, Messages>> = {
  es,
  ca,
  gl,
  "ca-valencia": caValencia,
  eu,
  en,
  "pt-pt": ptPt,
  fr,
};

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
