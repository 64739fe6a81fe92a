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
