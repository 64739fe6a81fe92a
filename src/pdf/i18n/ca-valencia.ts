import { ca } from "./ca";
import type { Messages } from "./messages";

/** Valencian: the Catalan catalog with the Valencian forms where they differ. */
export const caValencia: Messages = {
  ...ca,
  qrCaption: "Escanegeu el codi per a descarregar este document",
  legalBasis:
    "Document de control administratiu exigible per a la realització de transport públic de mercaderies per carretera, d'acord amb l'Orde FOM/2861/2012, de 13 de desembre.",
};
