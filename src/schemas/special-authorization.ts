import * as z from "zod";
import { optional, text } from "./text";

/** SpecialAuthorization (docs/api.md, Document body): for transports that need one. */
export const specialAuthorizationSchema = z.strictObject({
  number: text(1, 255),
  issuer: optional(text(1, 255)),
});
