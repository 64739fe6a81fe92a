import * as z from "zod";
import { countryCode } from "./country-code";
import { text } from "./text";

/** Address (docs/api.md, Shipper and carrier): all four fields required. */
export const addressSchema = z.strictObject({
  street: text(1, 255),
  postal_code: text(1, 255),
  city: text(1, 255),
  country: countryCode,
});
