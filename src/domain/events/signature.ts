import { fromBase64, toBase64 } from "../../base64";

// Standard Webhooks (https://www.standardwebhooks.com): a secret is "whsec_"
// and the base64 of its key; a delivery is signed over
// "<webhook-id>.<webhook-timestamp>.<body>" with HMAC-SHA256, and its
// `webhook-signature` header lists "v1,<base64 signature>" for each secret
// that signs, separated by spaces (two during a rotation's overlap).

const SECRET_PREFIX = "whsec_";
// At least 24 random bytes, as the spec recommends; 32, like the keyrings'.
const SECRET_BYTES = 32;

/** A new signing secret, `whsec_` and the base64 of 32 random bytes. */
export const newSigningSecret = (): string =>
  SECRET_PREFIX +
  toBase64(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));

/** The `webhook-signature` header of a delivery, one signature per secret. */
export async function signatureHeader(
  secrets: readonly string[],
  delivery: { id: string; timestamp: number; body: string },
): Promise<string> {
  const content = new TextEncoder().encode(
    `${delivery.id}.${delivery.timestamp}.${delivery.body}`,
  );
  const signatures = await Promise.all(
    secrets.map(async (secret) => {
      const raw = fromBase64(secret.slice(SECRET_PREFIX.length));
      const key = await crypto.subtle.importKey(
        "raw",
        raw,
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      const mac = await crypto.subtle.sign("HMAC", key, content);
      return `v1,${toBase64(new Uint8Array(mac))}`;
    }),
  );
  return signatures.join(" ");
}
