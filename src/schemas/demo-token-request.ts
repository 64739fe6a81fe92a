import * as z from "zod";
import { documentLocaleSchema } from "./document-locale";

/** The body of a demo token request: only the PDF language, `es` by default. */
export const demoTokenRequestSchema = z.strictObject({
  document_locale: documentLocaleSchema
    .nullish()
    .transform((locale) => locale ?? "es"),
});
