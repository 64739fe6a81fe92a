import { signedData } from "../../cms/signed-data";
import {
  readTimestampResponse,
  type Timestamp,
  timestampRequest,
} from "../../cms/timestamp";
import { logFailure } from "../../failure-log";
import { importedOnce } from "../../once-per";
import type { Environment } from "../../schemas/environment";
import type { SealKeyring } from "../../storage/seal-keyring";
import type { PdfSeal } from "./render-port";

// The seal a document's PDF is signed with: the current SEAL_KEYRING
// version's seal of its environment, so that a test or demo document never
// carries the live one (docs/pdf.md "The seal").

/** The seals; throws a configuration error where SEAL_KEYRING is not set (the edge Worker renders nothing). */
export type SealSettings = () => SealKeyring;

// The signed data's own bytes beside its certificates: the attributes,
// identifiers and an RSA signature of up to 4096 bits.
const SIGNED_DATA_ROOM = 1024;

/** A time-stamping authority (RFC 3161) that makes the seal B-T. */
export interface Timestamping {
  url: string;
  /** Sends the request and answers the authority's response. */
  send(request: Request): Promise<Response>;
}

/**
 * How long an issue waits for the authority: past it, the document is
 * issued B-B and its result says so (in the create's budget, docs/performance.md).
 */
const TIMESTAMP_WAIT_MS = 2000;
// Room for the token: its SignedData with the authority's certificates.
const TIMESTAMP_ROOM = 8192;

/** The key once per isolate: importing costs more than signing. */
const signingKey = importedOnce(
  "pkcs8",
  { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
  ["sign"],
);

/**
 * The seal of a new version of `environment`: B-T with a token of
 * `timestamping` when it answers in time, else B-B. A dry run's reserves
 * the token's room, so its PDF has the issued one's size, but asks no
 * authority: a token is a paid request of a real document.
 */
export function sealOf(
  seals: SealSettings,
  environment: Environment,
  timestamping: Timestamping | null,
  { dryRun }: { dryRun: boolean },
): PdfSeal {
  const keyring = seals();
  const seal = keyring.seals.get(keyring.current)?.[environment];
  const certificate = seal?.chain[0];
  if (!seal || !certificate)
    throw new Error("SEAL_KEYRING has no current seal");
  return {
    name: certificate.commonName,
    maxBytes:
      seal.chain.reduce((sum, { der }) => sum + der.length, 0) +
      SIGNED_DATA_ROOM +
      (timestamping ? TIMESTAMP_ROOM : 0),
    async sign(digest) {
      const key = await signingKey(seal.privateKey);
      let time: number | null = null;
      const cms = await signedData(
        digest,
        {
          chain: seal.chain,
          sign: async (data) =>
            new Uint8Array(
              await crypto.subtle.sign("RSASSA-PKCS1-v1_5", key, data),
            ),
        },
        async (signature) => {
          if (!timestamping || dryRun) return null;
          const stamped = await timestampOf(timestamping, signature);
          time = stamped?.time ?? null;
          return stamped?.token ?? null;
        },
      );
      return {
        cms,
        facts: {
          level: time === null ? "B-B" : "B-T",
          subject: certificate.subject,
          timestamp: time,
        },
      };
    },
  };
}

/** The authority's token over `signature`, or null (logged) when it does not answer in time or well. */
async function timestampOf(
  timestamping: Timestamping,
  signature: Uint8Array,
): Promise<Timestamp | null> {
  try {
    const digest = new Uint8Array(
      await crypto.subtle.digest("SHA-256", signature),
    );
    const response = await timestamping.send(
      new Request(timestamping.url, {
        method: "POST",
        headers: { "Content-Type": "application/timestamp-query" },
        body: timestampRequest(
          digest,
          crypto.getRandomValues(new Uint8Array(8)),
        ),
        signal: AbortSignal.timeout(TIMESTAMP_WAIT_MS),
      }),
    );
    if (!response.ok) throw new Error(`answered ${response.status}`);
    const stamped = readTimestampResponse(
      new Uint8Array(await response.arrayBuffer()),
      digest,
    );
    if (stamped.token.length > TIMESTAMP_ROOM) {
      throw new Error(`a token of ${stamped.token.length} bytes`);
    }
    return stamped;
  } catch (error) {
    logFailure({ event: "seal_timestamp_failed" }, error);
    return null;
  }
}
