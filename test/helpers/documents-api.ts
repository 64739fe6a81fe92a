import { fullRequest, minimalRequest } from "../../fixtures/requests";
import type { DocumentResult } from "../../src/schemas/document-result";
import { createCredential } from "./credentials";
import {
  bearer,
  type Call,
  callWithClock,
  fixedClock,
  fromIp,
  jsonRequest,
} from "./worker";

/** A document result as the API answers it (docs/api.md, Document result, either variant). */
export type DocumentResultBody = DocumentResult;

/** The document routes as a client uses them, with one key and one app. */
export function documentsApi(request: Call, key: string) {
  const path = (address: string) => `/api/v1/documents/${address}`;
  return {
    create: (body: unknown) =>
      request("/api/v1/documents", jsonRequest("POST", key, body)),
    /** The dry run: what a create of `body` would answer, nothing issued. */
    validate: (body: unknown) =>
      request("/api/v1/documents/validate", jsonRequest("POST", key, body)),
    get: (address: string) => request(path(address), bearer(key)),
    status: (address: string) =>
      request(`${path(address)}/status`, bearer(key)),
    pdf: (address: string) => request(`${path(address)}/pdf`, bearer(key)),
    /** The QR image; `query` as written after the path (`?format=png`). */
    qr: (address: string, query = "", method = "GET") =>
      request(`${path(address)}/qr${query}`, { method, ...bearer(key) }),
    /** The eFTI datasets, or with `datasetId` that consignment's XML. */
    efti: (address: string, datasetId?: string) =>
      request(
        `${path(address)}/efti${datasetId === undefined ? "" : `/${datasetId}`}`,
        bearer(key),
      ),
    rectify: (address: string, body: unknown) =>
      request(path(address), jsonRequest("PUT", key, body)),
    remove: (address: string, body: unknown = deletion()) =>
      request(path(address), jsonRequest("DELETE", key, body)),
    list: (query = "") => request(`/api/v1/documents${query}`, bearer(key)),
    /** Creates and returns the 201 result, failing loudly otherwise. */
    async issue(body: unknown): Promise<DocumentResultBody> {
      const response = await this.create(body);
      if (response.status !== 201) {
        throw new Error(
          `create answered ${response.status}: ${await response.text()}`,
        );
      }
      return (await response.json()) as DocumentResultBody;
    },
  };
}

/** A valid delete body; confirmations can be overridden. */
export const deletion = (overrides: Partial<Record<string, unknown>> = {}) => ({
  reason: "El transporte se canceló antes de salir",
  confirm_not_delivered: true,
  confirm_not_used: true,
  ...overrides,
});

/** The path and query of a QR url, to request it from the test app. */
export const qrPath = (url: string): string => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

/** Headers of a response without its request id, for identical-404 comparisons. */
export async function comparable(response: Response) {
  const headers = [...response.headers.entries()].filter(
    ([name]) => name !== "x-request-id",
  );
  return { status: response.status, headers, body: await response.text() };
}

/** SHA-256 hex of bytes, computed here rather than by the code under test. */
export async function sha256Of(
  bytes: ArrayBuffer | Uint8Array | string,
): Promise<string> {
  const input =
    typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
  const digest = await crypto.subtle.digest("SHA-256", input);
  return [...new Uint8Array(digest)]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

/**
 * A fresh credential with one full document issued at `now`, on an app whose
 * clock the test moves.
 */
export async function withIssuedDocument(now: number) {
  const clock = fixedClock(now);
  const request = callWithClock(clock);
  const owner = await createCredential();
  const api = documentsApi(request, owner.key);
  const document = await api.issue(fullRequest());
  return { clock, request, owner, api, document };
}

/** The document routes as a demo token taken from `ip` uses them, from that IP. */
export async function demoDocumentsApi(request: Call, ip: string) {
  const caller = fromIp(request, ip);
  const tokenResponse = await caller("/api/v1/demo/tokens", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: "{}",
  });
  if (tokenResponse.status !== 201) {
    throw new Error(`demo token answered ${tokenResponse.status}`);
  }
  const { token } = (await tokenResponse.json()) as { token: string };
  return documentsApi(caller, token);
}

/** A network of the documentation prefix no other call of the run uses. */
export const freshNetwork = () =>
  `2001:db8:${[...crypto.getRandomValues(new Uint16Array(2))]
    .map((group) => group.toString(16))
    .join(":")}::7`;

/**
 * A minimal demo document, issued with a demo token taken from a network of
 * its own: the demo's limits count each network whatever the test file.
 */
export async function issueDemoDocument(
  request: Call,
): Promise<DocumentResultBody> {
  return (await demoDocumentsApi(request, freshNetwork())).issue(
    minimalRequest(),
  );
}
