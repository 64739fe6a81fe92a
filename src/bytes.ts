// Byte arrays joined, as the PDF envelope, the QR code's PNG and the seal's
// DER are assembled from their parts.

/** `parts` one after another in a new array. */
export function concatBytes(
  parts: readonly ArrayLike<number>[],
): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
