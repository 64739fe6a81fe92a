import { fromBase64 } from "../base64";
import { type CertificateFacts, readCertificate } from "../cms/certificate";
import { ENVIRONMENTS, type Environment } from "../schemas/environment";
import { isRecord, readVersions } from "./keyring";

// SEAL_KEYRING, the service's electronic seals (docs/operations.md "The
// seal"): versions, each with one seal per environment, a private key and
// its certificate chain:
//   {"current":"v1","keys":{"v1":{"live":{"key":"<base64 PKCS #8>",
//     "chain":["<base64 DER of the seal's certificate>","<its CA's>", …]},
//     "test":{…},"demo":{…}}}}
// Rotation adds a version and makes it current: a PDF carries its seal's
// certificates, so older versions are never needed again.

interface SealKey {
  /** RSA private key, PKCS #8 DER. */
  privateKey: Uint8Array;
  /** The seal's certificate first, then its issuers. */
  chain: readonly CertificateFacts[];
}

export interface SealKeyring {
  current: string;
  /** Version → the seal of each environment. */
  seals: ReadonlyMap<string, Readonly<Record<Environment, SealKey>>>;
}

const SHAPE = `{"current":"<version>","keys":{"<version>":{"live":{"key":"<base64 PKCS #8>","chain":["<base64 DER certificate>", …]},"test":{…},"demo":{…}}}}`;

/**
 * What each environment's certificate must say in its subject, so that a
 * test or demo document can never carry the live seal, nor the reverse.
 */
const NAMED = {
  live: (subject: string) => !/PRUEBAS|DEMO/i.test(subject),
  test: (subject: string) => /PRUEBAS/i.test(subject),
  demo: (subject: string) => /DEMO/i.test(subject),
} satisfies Record<Environment, (subject: string) => boolean>;

const NAMING = {
  live: "names neither PRUEBAS nor DEMO",
  test: "names PRUEBAS",
  demo: "names DEMO",
} satisfies Record<Environment, string>;

const parsed = new Map<string, SealKeyring>();

/** The seals in `secret`; errors name SEAL_KEYRING and never quote it. */
export function parseSealKeyring(secret: string): SealKeyring {
  const cached = parsed.get(secret);
  if (cached) return cached;
  const keyring = readSealKeyring(secret);
  parsed.set(secret, keyring);
  return keyring;
}

function readSealKeyring(secret: string): SealKeyring {
  const name = "SEAL_KEYRING";
  const { current, keys } = readVersions(
    secret,
    name,
    SHAPE,
    (value, version) => {
      const byEnvironment = {} as Record<Environment, SealKey>;
      for (const environment of ENVIRONMENTS) {
        const seal = isRecord(value) ? value[environment] : undefined;
        byEnvironment[environment] = readSeal(
          seal,
          `${name} version "${version}", ${environment}`,
        );
        const [certificate] = byEnvironment[environment].chain;
        if (certificate && !NAMED[environment](certificate.subject)) {
          throw new Error(
            `${name} version "${version}": the ${environment} seal's certificate must have a subject that ${NAMING[environment]}`,
          );
        }
      }
      return byEnvironment;
    },
  );
  return { current, seals: keys };
}

function readSeal(seal: unknown, where: string): SealKey {
  if (
    !isRecord(seal) ||
    typeof seal.key !== "string" ||
    !Array.isArray(seal.chain) ||
    seal.chain.length === 0 ||
    !seal.chain.every((certificate) => typeof certificate === "string")
  ) {
    throw new Error(
      `${where}: must be {"key":"<base64 PKCS #8>","chain":["<base64 DER certificate>", …]}`,
    );
  }
  try {
    return {
      privateKey: fromBase64(seal.key),
      chain: (seal.chain as string[]).map((der) =>
        readCertificate(fromBase64(der)),
      ),
    };
  } catch {
    // Not passed on: a parser's message may quote the secret.
    throw new Error(`${where}: the key or a certificate is not base64 of DER`);
  }
}
