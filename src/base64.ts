// Base64 (RFC 4648 §4) of bytes, as secrets, signatures and hashes are
// written in headers, keyrings and stored rows.

/** The base64 of `bytes`, with padding. */
export const toBase64 = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes));

/** The bytes of base64 `text`; throws on a character outside the alphabet. */
export const fromBase64 = (text: string): Uint8Array =>
  Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
