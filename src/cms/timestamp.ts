import {
  boolean,
  childrenOf,
  type Element,
  NULL,
  objectIdentifier,
  octetString,
  readElement,
  sequence,
  smallInteger,
  unsignedInteger,
} from "./der";

// RFC 3161 time-stamping: the request for a token over a signature's value,
// and the token read back from the authority's answer, checked to be over
// that value.

const SHA256 = sequence(objectIdentifier("2.16.840.1.101.3.4.2.1"), NULL);

/** A TimeStampReq over `digest` (SHA-256), asking for the authority's certificate. */
export const timestampRequest = (
  digest: Uint8Array,
  nonce: Uint8Array,
): Uint8Array =>
  sequence(
    smallInteger(1),
    sequence(SHA256, octetString(digest)),
    unsignedInteger(nonce),
    boolean(true),
  );

/** A granted token and its time (epoch milliseconds). */
export interface Timestamp {
  /** The TimeStampToken, a CMS ContentInfo, DER. */
  token: Uint8Array;
  time: number;
}

/**
 * The token of a TimeStampResp, when granted over `digest`; throws on a
 * refusal, a malformed answer or a token over anything else.
 */
export function readTimestampResponse(
  response: Uint8Array,
  digest: Uint8Array,
): Timestamp {
  const [status, token] = childrenOf(readElement(response));
  const [code] = status ? childrenOf(status) : [];
  // 0 granted, 1 granted with modifications.
  if (code?.contents.length !== 1 || (code.contents[0] ?? 2) > 1) {
    throw new Error("the time-stamping authority refused the request");
  }
  if (!token) throw new Error("the time-stamping authority sent no token");
  const [, explicit] = childrenOf(token);
  const [signedData] = explicit ? childrenOf(explicit) : [];
  const encapsulated = signedData ? childrenOf(signedData)[2] : undefined;
  const content = encapsulated ? childrenOf(encapsulated)[1] : undefined;
  const [octets] = content ? childrenOf(content) : [];
  if (!octets) throw new Error("the token has no TSTInfo");
  const [, , imprint, , generalizedTime] = childrenOf(
    readElement(octets.contents),
  );
  const [, hashed] = imprint ? childrenOf(imprint) : [];
  if (!hashed || !sameBytes(hashed.contents, digest)) {
    throw new Error("the token is not over the signature");
  }
  if (!generalizedTime) throw new Error("the token has no time");
  return { token: token.bytes, time: timeOf(generalizedTime) };
}

/** A GeneralizedTime, `YYYYMMDDHHMMSS[.f…]Z`, as epoch milliseconds. */
function timeOf(element: Element): number {
  const text = new TextDecoder().decode(element.contents);
  const match = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\.\d+)?Z$/.exec(
    text,
  );
  if (!match) throw new Error("the token's time is malformed");
  const [, year, month, day, hour, minute, second, fraction] = match.map(
    (part) => Number(part ?? 0),
  ) as number[];
  return (
    Date.UTC(year ?? 0, (month ?? 1) - 1, day, hour, minute, second) +
    Math.floor((fraction ?? 0) * 1000)
  );
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean =>
  a.length === b.length && a.every((byte, i) => byte === b[i]);
