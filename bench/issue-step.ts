// The issuing step of POST /api/v1/documents without I/O, as
// src/domain/documents/issue-document.ts and the validation before it run it:
// validation and normalization (zod), QR link, render and seal, SHA-256 of the PDF and
// of the request, and encryption of the PDF for storage. No D1, no R2: the
// fallback fonts come from the FontStore given (bench/disk-fonts.ts).

import { fixtureSeal } from "../fixtures/seal";
import { fallbackFontsFor } from "../src/domain/documents/fallback-fonts";
import { pdfObjectKey } from "../src/domain/documents/issue-document";
import { qrUrl } from "../src/domain/documents/links";
import type { SealFacts } from "../src/domain/documents/render-port";
import { requestHash } from "../src/domain/documents/request-hash";
import { sha256Hex } from "../src/domain/sha256";
import { renderDocumentPdf } from "../src/pdf/render-document";
import { documentRequestSchema } from "../src/schemas/document-request";
import type { FontStore } from "../src/storage/font-store";
import { parseKeyring } from "../src/storage/keyring";
import { sealPdf } from "../src/storage/pdf-envelope";

const testKeyring = (seed: string): string =>
  JSON.stringify({ current: "v1", keys: { v1: btoa(seed.padEnd(32, "0")) } });

/** The PDF keyring of the benchmarks (and of the simulation's archive objects). */
export const pdfKeyring = parseKeyring(
  testKeyring("bench-pdf-key"),
  "PDF_KEYRING",
);
const qrKeyring = parseKeyring(testKeyring("bench-qr-key"), "QR_KEYRING");
const BASE_URL = "https://deca.example.com";

export interface IssuedWithoutIo {
  sealed: Uint8Array;
  pdfBytes: number;
  pages: number;
  sha256: string;
  /** What the PDF's seal is. */
  seal: SealFacts;
}

/**
 * Issues `body` (a JSON request body, parsed) up to the bytes that would be
 * stored, with the fallback fonts it needs from `fonts`.
 */
export async function issueWithoutIo(
  body: unknown,
  uuid: string,
  createdAt: number,
  fonts: FontStore,
): Promise<IssuedWithoutIo> {
  const request = documentRequestSchema.parse(body);
  const { metadata, ...data } = request;
  const url = await qrUrl(
    { baseUrl: BASE_URL, qrKeyring },
    { uuid, environment: "live", qrKeyVersion: qrKeyring.current },
  );
  const pdf = await renderDocumentPdf({
    data,
    uuid,
    createdAt,
    rectifies: null,
    qrUrl: url,
    locale: "es",
    environment: "live",
    fallbackFonts: await fallbackFontsFor(fonts, data),
    // An RSA-2048 signature, as the local seals'.
    seal: fixtureSeal("live"),
  });
  const [sha256] = await Promise.all([
    sha256Hex(pdf.bytes),
    requestHash(request),
    JSON.stringify(data),
    metadata === null ? null : JSON.stringify(metadata),
  ]);
  const sealed = await sealPdf(pdfKeyring, pdfObjectKey(uuid), pdf.bytes);
  return {
    sealed,
    pdfBytes: pdf.bytes.byteLength,
    pages: pdf.pages,
    sha256,
    seal: pdf.seal,
  };
}
