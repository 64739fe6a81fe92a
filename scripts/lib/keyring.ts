/** A new versioned keyring, the format of PDF_KEYRING and QR_KEYRING: one random 256-bit key. */
export function newKeyring(version = "v1"): string {
  const key = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString(
    "base64",
  );
  return JSON.stringify({ current: version, keys: { [version]: key } });
}
