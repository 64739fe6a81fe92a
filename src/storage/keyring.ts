import { fromBase64 } from "../base64";

// A versioned keyring from a Worker secret (PDF_KEYRING, QR_KEYRING):
//   {"current":"v1","keys":{"v1":"<base64 of 32 random bytes>"}}
// Rotation adds a version and makes it current; older versions stay, so that
// what was made under them (stored PDFs, printed QR links) keeps working.

export interface Keyring {
  /** The version that protects everything made from now on. */
  readonly current: string;
  /** Raw 256-bit keys by version. A Map, so that `JSON.stringify` of a keyring shows no key. */
  readonly keys: ReadonlyMap<string, Uint8Array>;
}

// Short and printable: versions are written into stored objects and rows.
// At most 32 characters, so a pasted key (44) can never pass as a version name
// and be quoted in an error.
const VERSION_PATTERN = /^[A-Za-z0-9._-]{1,32}$/;
// Canonical base64 of exactly 32 bytes: 43 characters and one "=".
const KEY_PATTERN = /^[A-Za-z0-9+/]{43}=$/;

const SHAPE = `{"current":"<version>","keys":{"<version>":"<base64 of 32 bytes>"}}`;

// This runs on every request: parse once per isolate per secret value.
const parsed = new Map<string, Keyring>();

/**
 * The keyring in `secret`. `name` (such as "PDF_KEYRING") labels the errors,
 * which never quote the secret.
 */
export function parseKeyring(secret: string, name: string): Keyring {
  const cached = parsed.get(secret);
  if (cached) return cached;
  const keyring = readKeyring(secret, name);
  parsed.set(secret, keyring);
  return keyring;
}

/** The key of `version`; a clear error when the keyring lacks it. */
export function keyOfVersion(keyring: Keyring, version: string): Uint8Array {
  const key = keyring.keys.get(version);
  if (!key) {
    throw new Error(
      `the keyring has no key version ${JSON.stringify(version)}`,
    );
  }
  return key;
}

function readKeyring(secret: string, name: string): Keyring {
  return readVersions(secret, name, SHAPE, (encoded, version) => {
    if (typeof encoded !== "string" || !KEY_PATTERN.test(encoded)) {
      throw new Error(
        `${name}: the key of version "${version}" is not base64 of exactly 32 bytes`,
      );
    }
    return fromBase64(encoded);
  });
}

/**
 * The versions of a keyring secret, `{"current":"<version>","keys":{…}}`,
 * each read by `readVersion`; the errors name `name` and show `shape`,
 * never the secret.
 */
export function readVersions<T>(
  secret: string,
  name: string,
  shape: string,
  readVersion: (value: unknown, version: string) => T,
): { current: string; keys: Map<string, T> } {
  let json: unknown;
  try {
    json = JSON.parse(secret);
  } catch {
    // Not passed on as the cause: JSON.parse's message quotes the input.
    throw new Error(`${name} is not valid JSON; expected ${shape}`);
  }
  if (
    !isRecord(json) ||
    typeof json.current !== "string" ||
    !isRecord(json.keys)
  ) {
    throw new Error(`${name} must be ${shape}`);
  }
  const keys = new Map<string, T>();
  for (const [version, value] of Object.entries(json.keys)) {
    if (!VERSION_PATTERN.test(version)) {
      throw new Error(
        `${name} has a key version that is not 1 to 32 letters, digits, ".", "_" or "-"`,
      );
    }
    keys.set(version, readVersion(value, version));
  }
  if (!keys.has(json.current)) {
    throw new Error(`${name}: "current" names no version in "keys"`);
  }
  return { current: json.current, keys };
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
