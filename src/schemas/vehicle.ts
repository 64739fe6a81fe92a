import * as z from "zod";
import { countryCode } from "./country-code";
import { fieldsAreValid } from "./issues";
import { lengthIssue, optional } from "./text";
import { normalizeIdentifier } from "./validators/identifier";
import {
  isValidRegistration,
  type RegistrationKind,
} from "./validators/registration";

/** A registration, normalized first; its length counts after normalization. */
const registration = z
  .string()
  .transform(normalizeIdentifier)
  .check((ctx) => {
    const tooLongOrShort = lengthIssue(ctx.value, 1, 20);
    if (tooLongOrShort) ctx.issues.push(tooLongOrShort);
  })
  .meta({
    description:
      "Plate, upper-cased without spaces or hyphens, then 1..20 characters; checked against the country's formats.",
  });

const registrationMatchesCountry = (
  countryField: "country" | "trailer_country",
  registrationField: "registration" | "trailer_registration",
  kind: RegistrationKind,
) =>
  z.refine<Record<string, unknown>>(
    (vehicle) => {
      const country = vehicle[countryField];
      const plate = vehicle[registrationField];
      return (
        typeof country !== "string" ||
        typeof plate !== "string" ||
        isValidRegistration(country, plate, kind)
      );
    },
    {
      path: [registrationField],
      message:
        kind === "trailer"
          ? "Not a valid trailer registration for trailer_country (for ES: the R series, such as R1234BCD)."
          : "Not a valid registration for country (for ES: such as 1234BCD, M1234AB or E1234BCD).",
      params: { code: "INVALID_REGISTRATION" },
      when: fieldsAreValid(countryField, registrationField),
    },
  );

/** Vehicle (docs/api.md, Vehicle): the tractor or lorry and, if any, its trailer. */
export const vehicleSchema = z
  .strictObject({
    country: countryCode,
    registration,
    trailer_country: optional(countryCode),
    trailer_registration: optional(registration),
  })
  .check(
    registrationMatchesCountry("country", "registration", "vehicle"),
    registrationMatchesCountry(
      "trailer_country",
      "trailer_registration",
      "trailer",
    ),
    z.refine(
      (vehicle) =>
        (vehicle.trailer_country === null) ===
        (vehicle.trailer_registration === null),
      {
        message:
          "Send both trailer_country and trailer_registration, or neither.",
        params: { code: "BOTH_OR_NEITHER" },
        when: fieldsAreValid("trailer_country", "trailer_registration"),
      },
    ),
  );
