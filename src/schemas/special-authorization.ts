import * as z from "zod";
import { optional, text } from "./text";

/** SpecialAuthorization (spec 2.8): for transports that need one. */
export const specialAuthorizationSchema = z.strictObject({
  number: text(1, 255),
  issuer: optional(text(1, 255)),
});
