/**
 * Normalizes a tax id or a registration: drops ASCII spaces and hyphens and
 * upper-cases ASCII letters. Any other character is kept, so that it fails
 * the format check instead of being silently rewritten (full Unicode
 * upper-casing would turn `ß` into `SS`).
 */
export function normalizeIdentifier(raw: string): string {
  return raw
    .replace(/[ -]/g, "")
    .replace(/[a-z]/g, (letter) => letter.toUpperCase());
}
