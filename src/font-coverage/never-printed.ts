// Apart from coverage.ts, which reads fonts/coverage.json: the script
// that writes that file asks this too (scripts/subset-fallback-fonts.ts).

// Unassigned and private-use code points: no font can mean anything by them.
const NEVER_PRINTED = /[\p{Cn}\p{Co}]/u;

/** Whether `character` is unassigned or private use, which no font prints. */
export const neverPrinted = (character: string): boolean =>
  NEVER_PRINTED.test(character);
