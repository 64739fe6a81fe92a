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

/** A public identifier such as `cred_…`, `org_…` or a webhook endpoint's `we_…`. */
export const newId = (prefix: "org" | "cred" | "we"): string =>
  `${prefix}_${randomBase62(24)}`;

/**
 * An event id drawn here, for an event answered as it is written (a ping):
 * `evt_` and 24 hex digits, like those the commit batches draw in SQL
 * (src/db/event-outbox.ts).
 */
export const newEventId = (): string =>
  `evt_${Array.from(crypto.getRandomValues(new Uint8Array(12)), (byte) =>
    byte.toString(16).padStart(2, "0"),
  ).join("")}`;
