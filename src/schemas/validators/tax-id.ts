// Tax ids of shippers and carriers (docs/api.md, Shipper and carrier: entity NIF
// control character). Written here rather than with `stdnum`: its CIF check
// accepts a digit or a letter after any first letter and its NIF checks a
// control letter on K/L/M ids, so only its NIE rule matches ours, and the
// remaining ~40 lines are simpler than wrapping it.

const DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE";
const ENTITY_CONTROL_LETTERS = "JABCDEFGHI";
const NIE_PREFIX_DIGITS: Record<string, string> = { X: "0", Y: "1", Z: "2" };

const DNI = /^[0-9]{8}[A-Z]$/;
const NIE = /^[XYZ][0-9]{7}[A-Z]$/;
const ENTITY_NIF = /^[ABCDEFGHJNPQRSUVW][0-9]{7}[0-9A-J]$/;
const SPECIAL_NIF = /^[KLM][A-Z0-9]{7}[A-Z]$/;
export const TAX_ID_MAX_LENGTH = 32;
const FOREIGN_TAX_ID = new RegExp(`^[A-Z0-9]{1,${TAX_ID_MAX_LENGTH}}$`);

// Which control character an entity may carry, by its first letter.
const ENTITY_DIGIT_CONTROL = "ABEH";
const ENTITY_LETTER_CONTROL = "NPQRSW";

/** The formats above, for the OpenAPI document. */
export const TAX_ID_FORMATS = `For ES, with its control character checked: a DNI (8 digits and a letter), an NIE (X, Y or Z, 7 digits and a letter) or an entity's NIF (one of ABCDEFGHJNPQRSUVW, 7 digits and a control digit or letter: a digit after A, B, E or H, a letter after N, P, Q, R, S or W, either after the others); K, L and M NIFs (the letter, 7 letters or digits, a letter) by their format only. Other countries: 1..${TAX_ID_MAX_LENGTH} letters and digits.`;

/** `country` is an upper-case CountryCode; `taxId` is already normalized. */
export function isValidTaxId(country: string, taxId: string): boolean {
  if (country !== "ES") return FOREIGN_TAX_ID.test(taxId);
  return (
    isValidDni(taxId) ||
    isValidNie(taxId) ||
    isValidEntityNif(taxId) ||
    SPECIAL_NIF.test(taxId) // K, L, M: format only (docs/api.md)
  );
}

function dniLetter(digits: string): string | undefined {
  return DNI_LETTERS[Number(digits) % 23];
}

function isValidDni(taxId: string): boolean {
  return DNI.test(taxId) && dniLetter(taxId.slice(0, 8)) === taxId[8];
}

function isValidNie(taxId: string): boolean {
  if (!NIE.test(taxId)) return false;
  const prefixDigit = NIE_PREFIX_DIGITS[taxId.charAt(0)];
  return dniLetter(`${prefixDigit}${taxId.slice(1, 8)}`) === taxId[8];
}

function isValidEntityNif(taxId: string): boolean {
  if (!ENTITY_NIF.test(taxId)) return false;
  const entityType = taxId.charAt(0);
  const control = taxId.charAt(8);
  const controlDigit = entityControlDigit(taxId.slice(1, 8));
  const asDigit = control === String(controlDigit);
  const asLetter = control === ENTITY_CONTROL_LETTERS[controlDigit];
  if (ENTITY_DIGIT_CONTROL.includes(entityType)) return asDigit;
  if (ENTITY_LETTER_CONTROL.includes(entityType)) return asLetter;
  return asDigit || asLetter;
}

// Digits in even positions (2nd, 4th, 6th) count as they are; digits in odd
// positions count as the digit sum of their double.
function entityControlDigit(sevenDigits: string): number {
  let sum = 0;
  for (let index = 0; index < sevenDigits.length; index++) {
    const digit = Number(sevenDigits.charAt(index));
    if (index % 2 === 1) {
      sum += digit;
    } else {
      const doubled = digit * 2;
      sum += Math.floor(doubled / 10) + (doubled % 10);
    }
  }
  return (10 - (sum % 10)) % 10;
}
