import * as z from "zod";
import { countryCode } from "./country-code";
import { identifier } from "./identifier";
import { fieldsAreValid } from "./issues";
import { optional } from "./text";
import {
  isValidRegistration,
  REGISTRATION_FORMATS,
  REGISTRATION_MAX_LENGTH,
  type RegistrationKind,
} from "./validators/registration";

const registration = (kind: RegistrationKind) =>
  identifier(
    REGISTRATION_MAX_LENGTH,
    `${REGISTRATION_FORMATS[kind]} Otherwise 422 INVALID_REGISTRATION.`,
  );

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
    registration: registration("vehicle"),
    trailer_country: optional(countryCode),
    trailer_registration: optional(registration("trailer")),
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
  )
  // For the OpenAPI document: null is "not given", like absent, so the pair
  // is either both null or absent, or each given with the other.
  .meta({
    anyOf: [
      {
        properties: {
          trailer_country: { type: "null" },
          trailer_registration: { type: "null" },
        },
      },
      {
        properties: {
          trailer_country: { not: { type: "null" } },
          trailer_registration: { not: { type: "null" } },
        },
        dependentRequired: {
          trailer_country: ["trailer_registration"],
          trailer_registration: ["trailer_country"],
        },
      },
    ],
    description:
      "trailer_country and trailer_registration: both or neither (422 BOTH_OR_NEITHER otherwise).",
  });
