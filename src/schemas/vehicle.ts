import * as z from "zod";
import { countryCode, SPAIN_PATTERN } from "./country-code";
import { identifier, identifierPattern } from "./identifier";
import { fieldsAreValid } from "./issues";
import { optional } from "./text";
import {
  FOREIGN_REGISTRATION_MIN_LENGTH,
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

/**
 * For the OpenAPI document: a registration of another country than Spain is
 * 3..20 letters and digits, a rule JSON Schema states; Spain's formats are
 * told in words (the registration's description).
 */
const foreignRegistration = (
  countryField: "country" | "trailer_country",
  registrationField: "registration" | "trailer_registration",
) => ({
  if: {
    properties: { [countryField]: { pattern: SPAIN_PATTERN } },
    required: [countryField],
  },
  else: {
    properties: {
      [registrationField]: {
        pattern: identifierPattern(
          FOREIGN_REGISTRATION_MIN_LENGTH,
          REGISTRATION_MAX_LENGTH,
        ),
      },
    },
  },
});

/** What the trailer is, when the request says (eFTI's transport equipment category, docs/efti.md). */
const TRAILER_KINDS = ["trailer", "semi_trailer"] as const;
export type TrailerKind = (typeof TRAILER_KINDS)[number];

/** Vehicle (docs/api.md, Vehicle): the tractor or lorry and, if any, its trailer. */
export const vehicleSchema = z
  .strictObject({
    country: countryCode,
    registration: registration("vehicle"),
    trailer_country: optional(countryCode),
    trailer_registration: optional(registration("trailer")),
    // Absent from the normalized data when not sent (null too), so that the
    // bodies without it keep their stored form and request hash.
    trailer_kind: z.enum(TRAILER_KINDS).nullish().meta({
      description:
        "What the trailer is: `trailer` (a full trailer, drawn by a drawbar) or `semi_trailer` (its front rests on the tractor); Spain's R plates are both. Only with a trailer (422 INVALID_VALUE otherwise). Not printed: it is eFTI data (the trailer's equipment category, docs/efti.md). Not sent or null: the trailer is not said to be either, and eFTI's generic trailer code is written.",
    }),
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
    z.refine(
      (vehicle) =>
        vehicle.trailer_kind == null || vehicle.trailer_registration !== null,
      {
        path: ["trailer_kind"],
        message:
          "trailer_kind says what the trailer is: send it with trailer_country and trailer_registration.",
        params: { code: "INVALID_VALUE" },
        when: fieldsAreValid("trailer_registration", "trailer_kind"),
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
    allOf: [
      foreignRegistration("country", "registration"),
      foreignRegistration("trailer_country", "trailer_registration"),
    ],
    description:
      "trailer_country and trailer_registration: both or neither (422 BOTH_OR_NEITHER otherwise).",
  })
  .transform(
    ({
      trailer_kind,
      ...vehicle
    }): typeof vehicle & { trailer_kind?: TrailerKind } =>
      trailer_kind == null ? vehicle : { ...vehicle, trailer_kind },
  );
