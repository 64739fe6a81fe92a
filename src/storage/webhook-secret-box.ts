import { fromBase64, toBase64 } from "../base64";
import { importedOnce } from "../once-per";
import { type Keyring, keyOfVersion } from "./keyring";

// A webhook endpoint's signing secret as stored: "<key version>:<base64 of
// IV (12 bytes) and the AES-256-GCM ciphertext with its tag>", under
// WEBHOOK_KEYRING. The endpoint's id is the additional authenticated data, so
// a secret copied onto another endpoint's row does not open.

const IV_BYTES = 12;
const encoder = new TextEncoder();

// Imported once per key and isolate.
const importKey = importedOnce("raw", "AES-GCM", ["encrypt", "decrypt"]);

/** `secret` sealed for the endpoint `endpointId` under the keyring's current version. */
export async function sealWebhookSecret(
  keyring: Keyring,
  endpointId: string,
  secret: string,
): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const key = await importKey(keyOfVersion(keyring, keyring.current));
  const ciphertext = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: encoder.encode(endpointId) },
    key,
    encoder.encode(secret),
  );
  const sealed = new Uint8Array(IV_BYTES + ciphertext.byteLength);
  sealed.set(iv);
  sealed.set(new Uint8Array(ciphertext), IV_BYTES);
  return `${keyring.current}:${toBase64(sealed)}`;
}

/** The secret sealed for `endpointId`; throws when it was altered or belongs to another endpoint. */
export async function openWebhookSecret(
  keyring: Keyring,
  endpointId: string,
  stored: string,
): Promise<string> {
  const separator = stored.indexOf(":");
  const version = stored.slice(0, separator);
  const sealed = fromBase64(stored.slice(separator + 1));
  const key = await importKey(keyOfVersion(keyring, version));
  const plain = await crypto.subtle.decrypt(
    {
      name: "AES-GCM",
      iv: sealed.subarray(0, IV_BYTES),
      additionalData: encoder.encode(endpointId),
    },
    key,
    sealed.subarray(IV_BYTES),
  );
  return new TextDecoder().decode(plain);
}
