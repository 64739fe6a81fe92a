import * as z from "zod";
import { component } from "./component";
import { documentLocaleSchema } from "./document-locale";
import { timestamp } from "./document-result";

/** The answer to a demo token request (docs/api.md, The demo), for the OpenAPI document. */
export const demoTokenResultSchema = component(
  "DemoTokenResult",
  z.strictObject({
    token: z.string().startsWith("sk_demo_"),
    expires_at: timestamp,
    document_locale: documentLocaleSchema,
  }),
);

export type DemoTokenResult = z.output<typeof demoTokenResultSchema>;
