import * as z from "zod";
import { addressSchema } from "./address";
import { countryCode } from "./country-code";
import { identifier } from "./identifier";
import { fieldsAreValid } from "./issues";
import { optional, text } from "./text";
import {
  isValidTaxId,
  TAX_ID_FORMATS,
  TAX_ID_MAX_LENGTH,
} from "./validators/tax-id";

const taxId = identifier(
  TAX_ID_MAX_LENGTH,
  `${TAX_ID_FORMATS} Otherwise 422 INVALID_TAX_ID.`,
);

/** What a tax id that its country's rules refuse is answered (422 INVALID_TAX_ID). */
export const INVALID_TAX_ID_MESSAGE =
  "Not a valid tax id for tax_country (for ES: a DNI, NIE or NIF with its control character).";

/** The tax id must be valid for the country that issued it (docs/api.md, Shipper and carrier). */
const taxIdMatchesCountry = z.refine<{ tax_country: string; tax_id: string }>(
  (party) => isValidTaxId(party.tax_country, party.tax_id),
  {
    path: ["tax_id"],
    message: INVALID_TAX_ID_MESSAGE,
    params: { code: "INVALID_TAX_ID" },
    when: fieldsAreValid("tax_country", "tax_id"),
  },
);

/** Shipper (docs/api.md, Shipper and carrier): the contractual shipper. */
export const shipperSchema = z
  .strictObject({
    name: text(1, 255),
    tax_country: countryCode,
    tax_id: taxId,
    address: addressSchema,
  })
  .check(taxIdMatchesCountry);

/** Carrier (docs/api.md, Shipper and carrier): the carrier actually performing the transport; address optional. */
export const carrierSchema = z
  .strictObject({
    name: text(1, 255),
    tax_country: countryCode,
    tax_id: taxId,
    address: optional(addressSchema),
  })
  .check(taxIdMatchesCountry);
