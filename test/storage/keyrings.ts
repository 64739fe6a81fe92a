import { type Keyring, parseKeyring } from "../../src/storage/keyring";

/** A new random 32-byte key, base64, as `openssl rand -base64 32` prints it. */
export const newKey = (): string =>
  btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));

/** A keyring with these versions, the last one current. */
export function keyringOf(keys: Record<string, string>): Keyring {
  const versions = Object.keys(keys);
  const current = versions[versions.length - 1];
  if (!current) throw new Error("a keyring needs a version");
  return parseKeyring(JSON.stringify({ current, keys }), "TEST_KEYRING");
}
