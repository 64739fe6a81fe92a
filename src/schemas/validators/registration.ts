// Vehicle and trailer registrations (docs/api.md, Vehicle). Lengths 1..20 are checked by
// the schema; these functions only answer whether the format is accepted.

export const REGISTRATION_MAX_LENGTH = 20;

/** The shortest registration of a country other than Spain. */
export const FOREIGN_REGISTRATION_MIN_LENGTH = 3;

export type RegistrationKind = "vehicle" | "trailer";

// Since 2000 series letters are consonants without Ñ or Q, so no words form.
const SERIES_LETTERS = "[BCDFGHJKLMNPRSTVWXYZ]";

const CURRENT_SERIES = new RegExp(`^[0-9]{4}${SERIES_LETTERS}{3}$`);
const SPECIAL_SERIES_E = new RegExp(`^E[0-9]{4}${SERIES_LETTERS}{3}$`);
const TRAILER_SERIES_R = new RegExp(`^R[0-9]{4}${SERIES_LETTERS}{3}$`);
const FOREIGN_REGISTRATION = new RegExp(
  `^[A-Z0-9]{${FOREIGN_REGISTRATION_MIN_LENGTH},${REGISTRATION_MAX_LENGTH}}$`,
);

// Province codes of the plates issued until 2000. Includes the co-official
// variants allowed in the 1990s (GE and GI Girona, OR and OU Ourense, PM and
// IB Baleares) since both stay on the road. Excluded: the three-letter codes
// of the first decades (ALB, CAC...), former colonies (FP, RM, SH...) and
// LR, which was never issued (La Rioja kept LO).
// biome-ignore format: the list reads better packed than one code a line
const PROVINCE_CODES = [
  "A", "AB", "AL", "AV", "B", "BA", "BI", "BU", "C", "CA", "CC", "CE", "CO",
  "CR", "CS", "CU", "GC", "GE", "GI", "GR", "GU", "H", "HU", "IB", "J", "L",
  "LE", "LO", "LU", "M", "MA", "ML", "MU", "NA", "O", "OR", "OU", "P", "PM",
  "PO", "S", "SA", "SE", "SG", "SO", "SS", "T", "TE", "TF", "TO", "V", "VA",
  "VI", "Z", "ZA",
];

// Old provincial series, exactly: a province code, then either
// - the numeric series (1900-1971): a number of 1 to 6 digits without a
//   leading zero (M-1 ... M-999999), or
// - the alphanumeric series (1971-2000): 4 digits and 1 or 2 letters A-Z
//   (M-0001-A ... M-9999-ZZ); vowels were used then, and no letter is
//   excluded, because validation does not prove that a plate was issued.
const OLD_PROVINCIAL_SERIES = new RegExp(
  `^(?:${PROVINCE_CODES.join("|")})(?:[1-9][0-9]{0,5}|[0-9]{4}[A-Z]{1,2})$`,
);

/** The formats above, for the OpenAPI document. */
export const REGISTRATION_FORMATS: Record<RegistrationKind, string> = {
  vehicle: `For ES: the current series (1234BCD: 4 digits and 3 consonants other than Ñ and Q), the special E series (E1234BCD) or an old provincial series (a province code, then 1 to 6 digits without a leading zero, as M123456, or 4 digits and 1 or 2 letters, as M1234AB). Other countries: ${FOREIGN_REGISTRATION_MIN_LENGTH}..${REGISTRATION_MAX_LENGTH} letters and digits.`,
  trailer: `For ES: the R series (R1234BCD: R, 4 digits and 3 consonants other than Ñ and Q). Other countries: ${FOREIGN_REGISTRATION_MIN_LENGTH}..${REGISTRATION_MAX_LENGTH} letters and digits.`,
};

/** `country` is an upper-case CountryCode; `registration` is normalized. */
export function isValidRegistration(
  country: string,
  registration: string,
  kind: RegistrationKind,
): boolean {
  if (country !== "ES") return FOREIGN_REGISTRATION.test(registration);
  if (kind === "trailer") return TRAILER_SERIES_R.test(registration);
  return (
    CURRENT_SERIES.test(registration) ||
    OLD_PROVINCIAL_SERIES.test(registration) ||
    SPECIAL_SERIES_E.test(registration)
  );
}
