import { childrenOf, dottedOid, type Element, readElement } from "./der";

// What the seal reads of an X.509 certificate (RFC 5280): who issued it and
// its serial (the CMS signer's identifier), and its subject.

export interface CertificateFacts {
  /** The whole DER encoding. */
  der: Uint8Array;
  /** The issuer's Name, DER. */
  issuer: Uint8Array;
  /** The serialNumber INTEGER, DER. */
  serialNumber: Uint8Array;
  /** The subject as text, most significant first: `CN=…, O=…, C=ES`. */
  subject: string;
  /** The subject's common name, or the whole subject without one. */
  commonName: string;
}

const ATTRIBUTE_NAMES: Record<string, string> = {
  "2.5.4.3": "CN",
  "2.5.4.5": "serialNumber",
  "2.5.4.6": "C",
  "2.5.4.7": "L",
  "2.5.4.8": "ST",
  "2.5.4.10": "O",
  "2.5.4.11": "OU",
  "2.5.4.97": "organizationIdentifier",
};

/** The facts of a DER certificate; throws when it is not one. */
export function readCertificate(der: Uint8Array): CertificateFacts {
  const [tbs] = childrenOf(readElement(der));
  if (!tbs) throw new Error("not a certificate");
  const fields = childrenOf(tbs);
  // An explicit [0] version comes first in every v3 certificate.
  const [serial, , issuer, , subject] =
    fields[0]?.tag === 0xa0 ? fields.slice(1) : fields;
  if (!serial || !issuer || !subject) throw new Error("not a certificate");
  const attributes = nameAttributes(subject);
  return {
    der,
    issuer: issuer.bytes,
    serialNumber: serial.bytes,
    subject: attributes.map(([name, value]) => `${name}=${value}`).join(", "),
    commonName:
      attributes.find(([name]) => name === "CN")?.[1] ??
      attributes.map(([, value]) => value).join(", "),
  };
}

/** A Name's attributes as [short name, text], most significant last as encoded, reversed. */
function nameAttributes(name: Element): [string, string][] {
  const attributes = childrenOf(name).flatMap((rdn) =>
    childrenOf(rdn).map((pair): [string, string] => {
      const [type, value] = childrenOf(pair);
      const oid = type ? dottedOid(type.contents) : "";
      return [
        ATTRIBUTE_NAMES[oid] ?? oid,
        new TextDecoder().decode(value?.contents ?? new Uint8Array()),
      ];
    }),
  );
  return attributes.reverse();
}
