const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
// The largest multiple of 62 below 256: bytes at or above it are drawn again,
// so that every character is equally likely.
const UNBIASED_LIMIT = 248;

/** `length` characters of [0-9A-Za-z] from the platform's CSPRNG. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length))) {
      if (byte < UNBIASED_LIMIT && out.length < length) {
        out += BASE62[byte % 62];
      }
    }
  }
  return out;
}

/** A public identifier such as `cred_…` or `org_…`. */
export const newId = (prefix: "org" | "cred"): string =>
  `${prefix}_${randomBase62(24)}`;
