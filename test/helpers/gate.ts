import { env } from "cloudflare:test";
import { type Call, fromIp } from "./worker";

// A gate of the eFTI platform interface (/efti/v0, docs/efti.md "Gates"),
// with the tests' GATE_KEYRING (vitest.config.ts).

/** The version of the tests' GATE_KEYRING: the gate it names. */
export const TEST_GATE = "es-gate.2027-07";

/** The base64 key of `version` of a GATE_KEYRING. */
export const gateKey = (
  keyring: string = env.GATE_KEYRING ?? "",
  version = TEST_GATE,
): string =>
  (JSON.parse(keyring) as { keys: Record<string, string> }).keys[version] ?? "";

/** A keyring of the named versions, `current` the last, for other bindings. */
export const gateKeyring = (versions: Record<string, string>): string =>
  JSON.stringify({
    current: Object.keys(versions).at(-1),
    keys: Object.fromEntries(
      Object.entries(versions).map(([version, seed]) => [
        version,
        btoa(seed.padEnd(32, "0")),
      ]),
    ),
  });

/**
 * The client certificate Cloudflare's edge reports in `request.cf`:
 * `fingerprint` (SHA-256, hex) verified against the zone's CA.
 */
export const clientCertificate = (
  fingerprint: string,
  certVerified = "SUCCESS",
) => ({
  tlsClientAuth: {
    certPresented: "1",
    certVerified,
    certFingerprintSHA256: fingerprint,
  },
});

/**
 * The two operations, as a gate calls them from `ip` with `key` (null: none),
 * over a connection whose `cf` properties are `cf` (none: no client
 * certificate).
 */
export function gateApi(
  request: Call,
  ip: string,
  key: string | null = gateKey(),
  cf?: ReturnType<typeof clientCertificate>,
) {
  const from = fromIp(request, ip);
  const caller: Call = cf ? (path, init) => from(path, { ...init, cf }) : from;
  const auth: Record<string, string> =
    key === null ? {} : { Authorization: `Bearer ${key}` };
  return {
    /** `GET …/consignments/{id}` with `query` as written after the path. */
    get: (datasetId: string, query = "?subsetId=ES01") =>
      caller(`/efti/v0/consignments/${datasetId}${query}`, { headers: auth }),
    followUp: (
      datasetId: string,
      body: BodyInit | null,
      contentType: string | null = "text/plain; charset=utf-8",
      headers: Record<string, string> = {},
    ) =>
      caller(`/efti/v0/consignments/${datasetId}/follow-up`, {
        method: "POST",
        headers: {
          ...auth,
          ...(contentType === null ? {} : { "Content-Type": contentType }),
          ...headers,
        },
        body,
      }),
  };
}
