import { concatBytes } from "../bytes";
import { importedOnce } from "../once-per";
import { type Keyring, keyOfVersion } from "./keyring";

// The encrypted form of a PDF, as stored (bytes, in order):
//   "DECA" magic (4) | format version 1 (1) | key version length n (1)
//   | master key version, ASCII (n) | wrapped data key (40) | IV (12)
//   | AES-256-GCM ciphertext of the PDF, with its 16-byte tag
//
// A header in the object body rather than R2 custom metadata: the object is
// self-contained, so its key material can never be separated from the
// ciphertext (copies, backups and exports may drop metadata), and every header
// byte is authenticated.
//
// The data key is wrapped with AES-KW (RFC 3394), made for wrapping keys: it
// checks its own integrity and needs no IV, so the long-lived master key has no
// nonce to repeat and no budget of random IVs (AES-GCM allows 2^32 per key).
// Binding to the object comes from the PDF's additional authenticated data:
// header || UTF-8 object key. Any changed header byte (wrapped key, IV, key
// version) or an object served under another key fails decryption.

const MAGIC = [0x44, 0x45, 0x43, 0x41]; // "DECA"
const FORMAT_VERSION = 1;
// AES-KW output: the 32-byte data key plus an 8-byte integrity block.
const WRAPPED_KEY_BYTES = 40;
const IV_BYTES = 12;
const DATA_KEY_BYTES = 32;

const encoder = new TextEncoder();

/** The stored form of `pdf` under `objectKey`, with the keyring's current version. */
export async function sealPdf(
  keyring: Keyring,
  objectKey: string,
  pdf: Uint8Array,
): Promise<Uint8Array> {
  const version = encoder.encode(keyring.current);
  const wrappingKey = await masterKey(keyOfVersion(keyring, keyring.current));
  const dataKey = await crypto.subtle.importKey(
    "raw",
    crypto.getRandomValues(new Uint8Array(DATA_KEY_BYTES)),
    "AES-GCM",
    true, // extractable, or it could not be wrapped
    ["encrypt"],
  );
  const wrappedKey = await crypto.subtle.wrapKey(
    "raw",
    dataKey,
    wrappingKey,
    "AES-KW",
  );
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const header = concatBytes([
    MAGIC,
    [FORMAT_VERSION, version.length],
    version,
    new Uint8Array(wrappedKey),
    iv,
  ]);
  const ciphertext = await crypto.subtle.encrypt(
    {
      name: "AES-GCM",
      iv,
      additionalData: concatBytes([header, encoder.encode(objectKey)]),
    },
    dataKey,
    pdf,
  );
  return concatBytes([header, new Uint8Array(ciphertext)]);
}

/** Exactly the PDF that was sealed under `objectKey`; throws when it was altered or moved. */
export async function openPdf(
  keyring: Keyring,
  objectKey: string,
  stored: Uint8Array,
): Promise<Uint8Array> {
  const { version, wrappedKey, iv, headerLength } = readHeader(
    objectKey,
    stored,
  );
  const key = keyring.keys.get(version);
  if (!key) {
    throw new Error(
      `stored PDF ${JSON.stringify(objectKey)} is under key version ${JSON.stringify(version)}, which the keyring lacks`,
    );
  }
  const unwrappingKey = await masterKey(key);
  try {
    const dataKey = await crypto.subtle.unwrapKey(
      "raw",
      wrappedKey,
      unwrappingKey,
      "AES-KW",
      "AES-GCM",
      false,
      ["decrypt"],
    );
    const additionalData = concatBytes([
      stored.subarray(0, headerLength),
      encoder.encode(objectKey),
    ]);
    const pdf = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv, additionalData },
      dataKey,
      stored.subarray(headerLength),
    );
    return new Uint8Array(pdf);
  } catch (error) {
    // Both a failed unwrap and a failed GCM tag check are OperationErrors.
    if (error instanceof Error && error.name === "OperationError") {
      throw new Error(
        `stored PDF ${JSON.stringify(objectKey)} failed authentication: it was altered, or copied from another object key`,
      );
    }
    throw error;
  }
}

function readHeader(objectKey: string, stored: Uint8Array) {
  const invalid = (why: string) =>
    new Error(`stored PDF ${JSON.stringify(objectKey)} ${why}`);
  if (
    stored.length < MAGIC.length + 2 ||
    MAGIC.some((byte, index) => stored[index] !== byte)
  ) {
    throw invalid("is not in the encrypted format");
  }
  const format = stored[MAGIC.length];
  if (format !== FORMAT_VERSION) {
    throw invalid(`has unknown format version ${format}`);
  }
  const versionStart = MAGIC.length + 2;
  const versionEnd = versionStart + (stored[MAGIC.length + 1] ?? 0);
  const wrappedKeyEnd = versionEnd + WRAPPED_KEY_BYTES;
  const headerLength = wrappedKeyEnd + IV_BYTES;
  if (stored.length < headerLength) throw invalid("is truncated");
  return {
    version: new TextDecoder().decode(
      stored.subarray(versionStart, versionEnd),
    ),
    wrappedKey: stored.subarray(versionEnd, wrappedKeyEnd),
    iv: stored.subarray(wrappedKeyEnd, headerLength),
    headerLength,
  };
}

// Imported once per key and isolate: every store and read of a PDF uses one.
const masterKey = importedOnce("raw", "AES-KW", ["wrapKey", "unwrapKey"]);
