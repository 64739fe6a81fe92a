import { signedData } from "../../cms/signed-data";
import type { Environment } from "../../schemas/environment";
import type { SealKey, SealKeyring } from "../../storage/seal-keyring";
import type { PdfSeal } from "./render-port";

// The seal a document's PDF is signed with: the current SEAL_KEYRING
// version's seal of its environment, so that a test or demo document never
// carries the live one (docs/pdf.md "The seal").

/** The seals; throws a configuration error where SEAL_KEYRING is not set (the edge Worker renders nothing). */
export type SealSettings = () => SealKeyring;

// The signed data's own bytes beside its certificates: the attributes,
// identifiers and an RSA signature of up to 4096 bits.
const SIGNED_DATA_ROOM = 1024;

const imported = new WeakMap<Uint8Array, Promise<CryptoKey>>();

/** The key once per isolate: importing costs more than signing. */
function signingKey(seal: SealKey): Promise<CryptoKey> {
  let key = imported.get(seal.privateKey);
  if (!key) {
    key = crypto.subtle.importKey(
      "pkcs8",
      seal.privateKey,
      { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
      false,
      ["sign"],
    );
    imported.set(seal.privateKey, key);
  }
  return key;
}

/** The seal of a new version of `environment`. */
export function sealOf(seals: SealSettings, environment: Environment): PdfSeal {
  const keyring = seals();
  const seal = keyring.seals.get(keyring.current)?.[environment];
  const certificate = seal?.chain[0];
  if (!seal || !certificate)
    throw new Error("SEAL_KEYRING has no current seal");
  return {
    name: certificate.commonName,
    maxBytes:
      seal.chain.reduce((sum, { der }) => sum + der.length, 0) +
      SIGNED_DATA_ROOM,
    async sign(digest) {
      const key = await signingKey(seal);
      const cms = await signedData(
        digest,
        {
          chain: seal.chain,
          sign: async (data) =>
            new Uint8Array(
              await crypto.subtle.sign("RSASSA-PKCS1-v1_5", key, data),
            ),
        },
        async () => null,
      );
      return {
        cms,
        facts: { level: "B-B", subject: certificate.subject, timestamp: null },
      };
    },
  };
}
