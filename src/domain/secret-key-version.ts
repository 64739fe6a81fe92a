import { toBase64 } from "../base64";
import type { Keyring } from "../storage/keyring";

// A secret presented as `Authorization: Bearer <secret>` is a key of a
// keyring (SUPPORT_KEYRING for the operations API, GATE_KEYRING for the eFTI
// gates), sent as its base64. Every version is accepted, so that a rotation
// adds the new one, moves the callers to it, then removes the old one
// (docs/operations.md, docs/efti.md); the version matched names the caller.

const digest = async (bytes: Uint8Array): Promise<Uint8Array> =>
  new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));

/**
 * The version of the keyring whose key `presented` is, or null. Both sides
 * are hashed to one length and compared in constant time, every version
 * whatever the outcome: the time says nothing about how close a guess was.
 */
export async function secretKeyVersion(
  keyring: Keyring,
  presented: string,
): Promise<string | null> {
  const encoder = new TextEncoder();
  const presentedHash = await digest(encoder.encode(presented));
  let matched: string | null = null;
  for (const [version, key] of keyring.keys) {
    const keyHash = await digest(encoder.encode(toBase64(key)));
    if (crypto.subtle.timingSafeEqual(presentedHash, keyHash)) {
      matched = version;
    }
  }
  return matched;
}
