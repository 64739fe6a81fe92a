// A new SEAL_KEYRING for a machine of one's own: a local certification
// authority and, issued by it, one seal per environment whose names say
// what they are (docs/operations.md "The seal"). Nothing outside this
// machine trusts the authority: its documents verify only against it.
import {
  bitString,
  boolean,
  certificateTime,
  contextTag,
  element,
  NULL,
  objectIdentifier,
  octetString,
  printableString,
  sequence,
  setOf,
  smallInteger,
  unsignedInteger,
  utf8String,
} from "../../src/cms/der";

const RSA = {
  name: "RSASSA-PKCS1-v1_5",
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: "SHA-256",
} as const;

const SHA256_WITH_RSA = sequence(
  objectIdentifier("1.2.840.113549.1.1.11"),
  NULL,
);

/** The subjects' common names; each environment's says what its documents are. */
const LOCAL_SEAL_NAMES = {
  authority: "DeCA CA local (npm start, sin validez)",
  live: "DeCA sello local (sin validez fuera de esta máquina)",
  test: "DeCA sello de PRUEBAS (local)",
  demo: "DeCA sello DEMO (local)",
} as const;

const name = (commonName: string): Uint8Array =>
  sequence(
    setOf(sequence(objectIdentifier("2.5.4.6"), printableString("ES"))),
    setOf(sequence(objectIdentifier("2.5.4.10"), utf8String("DeCA local"))),
    setOf(sequence(objectIdentifier("2.5.4.3"), utf8String(commonName))),
  );

const extension = (oid: string, value: Uint8Array): Uint8Array =>
  sequence(objectIdentifier(oid), boolean(true), octetString(value));

// keyUsage bits: digitalSignature and nonRepudiation for a seal,
// keyCertSign and cRLSign for the authority (unused trailing bits first).
const KEY_USAGE = {
  seal: element(0x03, new Uint8Array([6, 0xc0])),
  authority: element(0x03, new Uint8Array([1, 0x06])),
};

async function certificate(options: {
  subject: string;
  issuer: string;
  publicKey: CryptoKey;
  issuerKey: CryptoKey;
  authority: boolean;
}): Promise<Uint8Array> {
  const spki = new Uint8Array(
    (await crypto.subtle.exportKey("spki", options.publicKey)) as ArrayBuffer,
  );
  const serial = crypto.getRandomValues(new Uint8Array(16));
  serial[0] = (serial[0] ?? 0) & 0x7f;
  const tbs = sequence(
    contextTag(0, smallInteger(2)),
    unsignedInteger(serial),
    SHA256_WITH_RSA,
    name(options.issuer),
    sequence(
      certificateTime(Date.UTC(2020, 0, 1)),
      certificateTime(Date.UTC(2049, 11, 31, 23, 59, 59)),
    ),
    name(options.subject),
    spki,
    contextTag(
      3,
      sequence(
        extension(
          "2.5.29.19",
          options.authority ? sequence(boolean(true)) : sequence(),
        ),
        extension(
          "2.5.29.15",
          options.authority ? KEY_USAGE.authority : KEY_USAGE.seal,
        ),
      ),
    ),
  );
  const signature = new Uint8Array(
    await crypto.subtle.sign(RSA.name, options.issuerKey, tbs),
  );
  return sequence(tbs, SHA256_WITH_RSA, bitString(signature));
}

const base64 = (bytes: Uint8Array | ArrayBuffer): string =>
  Buffer.from(bytes as Uint8Array).toString("base64");

/** A new SEAL_KEYRING (JSON); each chain ends with the authority's certificate. */
export async function newSealKeyring(version = "v1"): Promise<string> {
  const authorityKeys = (await crypto.subtle.generateKey(RSA, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
  const authority = await certificate({
    subject: LOCAL_SEAL_NAMES.authority,
    issuer: LOCAL_SEAL_NAMES.authority,
    publicKey: authorityKeys.publicKey,
    issuerKey: authorityKeys.privateKey,
    authority: true,
  });
  const seal = async (subject: string) => {
    const keys = (await crypto.subtle.generateKey(RSA, true, [
      "sign",
      "verify",
    ])) as CryptoKeyPair;
    const own = await certificate({
      subject,
      issuer: LOCAL_SEAL_NAMES.authority,
      publicKey: keys.publicKey,
      issuerKey: authorityKeys.privateKey,
      authority: false,
    });
    return {
      key: base64(
        (await crypto.subtle.exportKey(
          "pkcs8",
          keys.privateKey,
        )) as ArrayBuffer,
      ),
      chain: [base64(own), base64(authority)],
    };
  };
  const seals = {
    live: await seal(LOCAL_SEAL_NAMES.live),
    test: await seal(LOCAL_SEAL_NAMES.test),
    demo: await seal(LOCAL_SEAL_NAMES.demo),
  };
  return JSON.stringify({ current: version, keys: { [version]: seals } });
}
