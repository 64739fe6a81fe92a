import { oncePer } from "../once-per";
import type { CertificateFacts } from "./certificate";
import {
  contextTag,
  element,
  NULL,
  objectIdentifier,
  octetString,
  sequence,
  setOf,
  smallInteger,
} from "./der";

// A detached CMS SignedData (RFC 5652) with the attributes of a CAdES
// baseline signature for PAdES (ETSI EN 319 122-1, EN 319 142-1): content
// type, message digest and the ESS signing-certificate-v2; no signing time
// (PAdES puts it in the signature dictionary). Signed with RSA PKCS #1 v1.5
// and SHA-256, so the same bytes and key give the same signature.

const OID = {
  data: "1.2.840.113549.1.7.1",
  signedData: "1.2.840.113549.1.7.2",
  sha256: "2.16.840.1.101.3.4.2.1",
  sha256WithRsa: "1.2.840.113549.1.1.11",
  contentType: "1.2.840.113549.1.9.3",
  messageDigest: "1.2.840.113549.1.9.4",
  signingCertificateV2: "1.2.840.113549.1.9.16.2.47",
  signatureTimeStampToken: "1.2.840.113549.1.9.16.2.14",
} as const;

// The parameters absent, as RFC 5754 prefers for SHA-2.
const SHA256 = sequence(objectIdentifier(OID.sha256));

const attribute = (oid: string, value: Uint8Array): Uint8Array =>
  sequence(objectIdentifier(oid), setOf(value));

/** What signs: the signer's certificate first, then the chain up to (not always including) its root. */
export interface CmsSigner {
  chain: readonly CertificateFacts[];
  /** RSASSA-PKCS1-v1_5 with SHA-256 over `data`. */
  sign(data: Uint8Array): Promise<Uint8Array>;
}

/** A certificate's SHA-256, once per isolate: every PDF names the same seal. */
const hashOf = oncePer((der: Uint8Array) =>
  crypto.subtle.digest("SHA-256", der).then((digest) => new Uint8Array(digest)),
);

/**
 * The SignedData of `digest` (SHA-256 of the signed bytes) as a ContentInfo.
 * `timestamp`, given the signature value, answers an RFC 3161 token to
 * carry as an unsigned attribute, or null for none.
 */
export async function signedData(
  digest: Uint8Array,
  signer: CmsSigner,
  timestamp: (signature: Uint8Array) => Promise<Uint8Array | null>,
): Promise<Uint8Array> {
  const [certificate] = signer.chain;
  if (!certificate) throw new Error("the seal has no certificate");
  const certificateHash = await hashOf(certificate.der);
  // IssuerSerial: the issuer as a GeneralName's directoryName ([4]).
  const issuerSerial = sequence(
    sequence(element(0xa4, certificate.issuer)),
    certificate.serialNumber,
  );
  const attributes = [
    attribute(OID.contentType, objectIdentifier(OID.data)),
    attribute(OID.messageDigest, octetString(digest)),
    attribute(
      OID.signingCertificateV2,
      // The hash algorithm is the default, SHA-256, so it is left out.
      sequence(sequence(sequence(octetString(certificateHash), issuerSerial))),
    ),
  ];
  // Signed as a SET OF (tag 0x31), carried as [0] IMPLICIT.
  const signedAttributes = setOf(...attributes);
  const signature = await signer.sign(signedAttributes);
  const token = await timestamp(signature);
  const signerInfo = sequence(
    smallInteger(1),
    sequence(certificate.issuer, certificate.serialNumber),
    SHA256,
    contextTag(0, signedAttributes.subarray(headerLength(signedAttributes))),
    sequence(objectIdentifier(OID.sha256WithRsa), NULL),
    octetString(signature),
    ...(token
      ? [contextTag(1, attribute(OID.signatureTimeStampToken, token))]
      : []),
  );
  return sequence(
    objectIdentifier(OID.signedData),
    contextTag(
      0,
      sequence(
        smallInteger(1),
        setOf(SHA256),
        sequence(objectIdentifier(OID.data)),
        contextTag(0, ...signer.chain.map(({ der }) => der)),
        setOf(signerInfo),
      ),
    ),
  );
}

const headerLength = (encoded: Uint8Array): number => {
  const first = encoded[1] ?? 0;
  return first & 0x80 ? 2 + (first & 0x7f) : 2;
};
