import { toBase64 } from "../base64";
import { importedOnce } from "../once-per";
import { type Keyring, keyOfVersion } from "./keyring";

// The QR secret `k` is derived, never stored: HMAC-SHA-256 of "qr:<uuid>"
// under the QR keyring version the document was issued under (its row keeps
// only `qrKeyVersion`), so a new current version never breaks an older link.
// Its first 16 bytes give 128 bits (docs/api.md, QR links), 22 base64url characters.
// Changing this derivation would break every printed QR code.
const SECRET_BYTES = 16;
const SECRET_LENGTH = 22;

const encoder = new TextEncoder();

// Imported once per key and isolate: every create, read and scan derives a `k`.
const hmacKey = importedOnce("raw", { name: "HMAC", hash: "SHA-256" }, [
  "sign",
]);

/** The `k` of a document; `documentUuid` as stored in its row. */
export async function deriveQrSecret(
  keyring: Keyring,
  version: string,
  documentUuid: string,
): Promise<string> {
  const mac = await crypto.subtle.sign(
    "HMAC",
    await hmacKey(keyOfVersion(keyring, version)),
    encoder.encode(`qr:${documentUuid}`),
  );
  return base64Url(new Uint8Array(mac, 0, SECRET_BYTES));
}

/** Whether `candidate` is the document's `k`, compared in constant time. */
export async function verifyQrSecret(
  keyring: Keyring,
  version: string,
  documentUuid: string,
  candidate: string,
): Promise<boolean> {
  // Every `k` has the same, public length: rejecting others early reveals nothing.
  if (candidate.length !== SECRET_LENGTH) return false;
  const expected = encoder.encode(
    await deriveQrSecret(keyring, version, documentUuid),
  );
  const given = encoder.encode(candidate);
  // Non-ASCII characters make more bytes than characters.
  if (given.length !== expected.length) return false;
  return crypto.subtle.timingSafeEqual(given, expected);
}

/**
 * The key version under which `candidate` is the document's `k`, trying
 * every version of the keyring (the current one first), or null: no storage
 * needed to know which version the document was issued under.
 */
export async function qrKeyVersionOf(
  keyring: Keyring,
  documentUuid: string,
  candidate: string,
): Promise<string | null> {
  const versions = [
    keyring.current,
    ...[...keyring.keys.keys()].filter(
      (version) => version !== keyring.current,
    ),
  ];
  for (const version of versions) {
    if (await verifyQrSecret(keyring, version, documentUuid, candidate)) {
      return version;
    }
  }
  return null;
}

const base64Url = (bytes: Uint8Array): string =>
  toBase64(bytes).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
