// The three documents the simulation measures, issued by the real code as far
// as Node runs it: validation and normalization, request hash, render, SHA-256
// and the PDF envelope (bench/issue-step.ts), then the row a create writes,
// its uuid planned by src/domain/documents/issue-document.ts.
import { readFile } from "node:fs/promises";
import { longText } from "../../fixtures/documents";
import type {
  CredentialRow,
  DocumentRow,
  OrganizationRow,
} from "../../src/db/schema";
import { newCredential } from "../../src/domain/api-keys";
import type { Credential } from "../../src/domain/authenticate";
import {
  planIssue,
  versionRow,
} from "../../src/domain/documents/issue-document";
import type { SealFacts } from "../../src/domain/documents/render-port";
import { requestHash } from "../../src/domain/documents/request-hash";
import { newId, randomBase62 } from "../../src/domain/random";
import { newDocumentUuid } from "../../src/domain/shard-routing";
import {
  type DocumentRequest,
  documentRequestSchema,
} from "../../src/schemas/document-request";
import { diskFontSource } from "../disk-fonts";
import { fullRequest, largestRequest } from "../fixtures";
import { issueWithoutIo } from "../issue-step";

export const KINDS = ["readme", "typical", "largest"] as const;
export type Kind = (typeof KINDS)[number];

export const KIND_NAMES: Record<Kind, string> = {
  readme: "README's example",
  typical: "typical (≈2.6 KB data, 0.4 KB metadata)",
  largest: "largest allowed (16 KiB metadata)",
};

const ROOT = new URL("../..", import.meta.url).pathname;
const TYPICAL_DATA_BYTES = 2600;
const TYPICAL_METADATA_BYTES = 400;

const utf8Bytes = (text: string): number => Buffer.byteLength(text, "utf8");

/** The request body of README's quick start (its request.json), dated today as the shell would date it. */
async function readmeRequest(): Promise<Record<string, unknown>> {
  const readme = await readFile(`${ROOT}/README.md`, "utf8");
  const block = /cat > request\.json <<JSON\n([\s\S]*?)\nJSON\n/.exec(readme);
  if (!block?.[1]) throw new Error("README has no request.json example");
  const today = new Date().toISOString().slice(0, 10);
  return JSON.parse(block[1].replace(/\$\([^)]*date[^)]*\)/g, today));
}

const dataJson = (body: Record<string, unknown>): string => {
  const { metadata, ...data } = documentRequestSchema.parse(body);
  return JSON.stringify(data);
};

/**
 * The full fixture with observations as long as needed for 2.6 KB of
 * normalized data, and an ERP's order lines as 0.4 KB of metadata.
 */
function typicalRequest(): Record<string, unknown> {
  const body = fullRequest();
  const base = utf8Bytes(dataJson({ ...body, observations: "" }));
  let length = TYPICAL_DATA_BYTES - base;
  while (
    utf8Bytes(dataJson({ ...body, observations: longText(length) })) >
    TYPICAL_DATA_BYTES
  ) {
    length -= 1;
  }
  const lines: { sku: string; quantity: number; unit: string }[] = [];
  const metadata = { erp: "SAP S/4HANA", order: { id: 4_500_123_981, lines } };
  while (utf8Bytes(JSON.stringify(metadata)) < TYPICAL_METADATA_BYTES) {
    lines.push({
      sku: `AZ-${1000 + lines.length}`,
      quantity: 24,
      unit: "pallet",
    });
  }
  return { ...body, observations: longText(length), metadata };
}

const requestBodies: Record<
  Kind,
  () => Promise<Record<string, unknown>> | Record<string, unknown>
> = {
  readme: readmeRequest,
  typical: typicalRequest,
  largest: largestRequest,
};

/** A kind of document, issued once: what every row of that kind carries. */
export interface IssuedKind {
  kind: Kind;
  request: DocumentRequest;
  dataBytes: number;
  metadataBytes: number;
  requestHash: string;
  pdfSha256: string;
  pdfBytes: number;
  pdfPages: number;
  pdfSeal: SealFacts;
  /** The PDF object in R2: the PDF in its envelope. */
  storedPdfBytes: number;
}

export async function issueKind(kind: Kind): Promise<IssuedKind> {
  const body = await requestBodies[kind]();
  const request = documentRequestSchema.parse(body);
  const { metadata, ...data } = request;
  const createdAt = Date.UTC(2026, 10, 23, 7);
  const uuid = newDocumentUuid(0, createdAt);
  const issued = await issueWithoutIo(
    body,
    uuid,
    createdAt,
    diskFontSource(ROOT),
  );
  return {
    kind,
    request,
    dataBytes: utf8Bytes(JSON.stringify(data)),
    metadataBytes: metadata === null ? 0 : utf8Bytes(JSON.stringify(metadata)),
    requestHash: await requestHash(request),
    pdfSha256: issued.sha256,
    pdfBytes: issued.pdfBytes,
    pdfPages: issued.pages,
    pdfSeal: issued.seal,
    storedPdfBytes: issued.sealed.byteLength,
  };
}

/** The organizations and their one live credential each, as the key tool makes them. */
export async function directory(
  count: number,
  createdAt: number,
): Promise<{ organization: OrganizationRow; credential: CredentialRow }[]> {
  const entries = [];
  for (let i = 0; i < count; i++) {
    const organization: OrganizationRow = {
      id: newId("org"),
      name: `Transportes ${randomBase62(12)} SL`,
      documentLocale: "es",
      createdAt,
    };
    const { row } = await newCredential({
      organizationId: organization.id,
      environment: "live",
      createdAt,
    });
    entries.push({ organization, credential: row });
  }
  return entries;
}

/** A credential as authentication hands it to the document rules. */
export const credentialOf = (row: CredentialRow): Credential => ({
  id: row.id,
  organizationId: row.organizationId,
  environment: row.environment,
  rateLimitPerMinute: row.rateLimitPerMinute,
  expiresAt: row.expiresAt,
  documentLocale: "es",
});

/** The kind's reference with its last 7 characters numbered: unique, same length. */
export const numberedReference = (issued: IssuedKind, n: number): string => {
  const reference = issued.request.reference ?? "PED-2026-0001";
  return `${reference.slice(0, -7)}${String(n).padStart(7, "0")}`;
};

/**
 * The row of a version of a kind issued at `createdAt` by `credential`, as
 * issue-document.ts makes it: its uuid planned by the service (the
 * reference's bucket, the original's for a correction, any otherwise).
 */
export function issuedRow(
  issued: IssuedKind,
  credential: Credential,
  createdAt: number,
  version: { reference: string | null; rectifies?: DocumentRow },
): DocumentRow {
  const { reference, rectifies } = version;
  const clock = { now: () => createdAt };
  const { uuid } = planIssue({ clock }, credential, reference, rectifies);
  return versionRow(
    credential,
    { ...issued.request, reference },
    {
      uuid,
      createdAt,
      rectifiesUuid: rectifies?.uuid ?? null,
      qrKeyVersion: "v1",
      requestHash: issued.requestHash,
      pdf: {
        sha256: issued.pdfSha256,
        sizeBytes: issued.pdfBytes,
        pages: issued.pdfPages,
        seal: issued.pdfSeal,
      },
    },
  );
}
