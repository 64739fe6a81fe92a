import * as z from "zod";
import { component } from "./component";
import { documentLocaleSchema } from "./document-locale";

/** The body of a demo token request: only the PDF language, `es` by default. */
export const demoTokenRequestSchema = component(
  "DemoTokenRequest",
  z.strictObject({
    document_locale: documentLocaleSchema
      .nullish()
      .transform((locale) => locale ?? "es"),
  }),
);
