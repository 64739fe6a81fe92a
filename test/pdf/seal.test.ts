import { describe, expect, it } from "vitest";
import {
  fullDocumentInput,
  groupedDocument,
  ISSUE,
  RECTIFIED_VERSION,
} from "../../fixtures/documents";
import { FIXTURE_SEAL_AUTHORITY, fixtureSeal } from "../../fixtures/seal";
import { newSealKeyring } from "../../scripts/lib/seal-keyring";
import { readCertificate } from "../../src/cms/certificate";
import type { DocumentPdfInput } from "../../src/domain/documents/render-port";
import { CATALOGS } from "../../src/pdf/i18n/catalogs";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import {
  checkPdfStructure,
  decodeQrCode,
  pageTexts,
  squeezeSpaces,
} from "./pdf-tools";
import {
  cmsPrintout,
  hasPdfsig,
  opensslVerify,
  opensslVerifyCertificate,
  pdfsig,
  signatureField,
} from "./seal-tools";
import { startTimestampAuthority } from "./timestamp-authority";

const input = (overrides: Partial<DocumentPdfInput> = {}) =>
  fullDocumentInput("test", overrides);

const KINDS = {
  original: input(),
  correction: input({ rectifies: RECTIFIED_VERSION }),
  grouped: input({ data: groupedDocument(40) }),
  "original in English": input({ locale: "en" }),
};

/** `bytes` with one byte changed at `at`. */
const changedAt = (bytes: Uint8Array, at: number): Uint8Array => {
  const copy = bytes.slice();
  copy[at] = (copy[at] ?? 0) ^ 0x01;
  return copy;
};

describe.each(Object.entries(KINDS))("the seal of an %s", (_, document) => {
  it("is a PAdES signature over the whole file but its own contents, valid for OpenSSL against the authority", async () => {
    const pdf = await renderDocumentPdf(document);
    await checkPdfStructure(pdf.bytes);
    const field = signatureField(pdf.bytes);
    expect(field.fieldType).toBe("signature");
    expect(field.subFilter).toBe("ETSI.CAdES.detached");
    const [start, firstLength = 0, second = 0, secondLength = 0] =
      field.byteRange;
    expect(start).toBe(0);
    expect(second + secondLength).toBe(pdf.bytes.length);
    // The gap is exactly the Contents' hex string, brackets included.
    expect(pdf.bytes[firstLength]).toBe("<".charCodeAt(0));
    expect(pdf.bytes[second - 1]).toBe(">".charCodeAt(0));
    expect(field.name).toBe("DeCA sello de PRUEBAS (local)");
    expect(field.reason).toBe("Documento de control — Orden FOM/2861/2012");
    expect(field.location).toBe("España");
    expect(field.signingTime).toBe("D:20261121120000Z");

    const verified = opensslVerify(pdf.bytes, FIXTURE_SEAL_AUTHORITY);
    expect(verified.output).toContain("Verification successful");
    expect(verified.ok).toBe(true);
    const printout = cmsPrintout(pdf.bytes);
    expect(printout).toContain("id-smime-aa-signingCertificateV2");
    expect(printout).not.toContain("signingTime");
    expect(pdf.seal).toEqual({
      level: "B-B",
      subject: "CN=DeCA sello de PRUEBAS (local), O=DeCA local, C=ES",
      timestamp: null,
    });
  });

  it("is invalid for OpenSSL once a byte of either signed range changes", async () => {
    const { bytes } = await renderDocumentPdf(document);
    const field = signatureField(bytes);
    const [, firstLength = 0, second = 0] = field.byteRange;
    for (const at of [400, firstLength - 1, second + 10, bytes.length - 1]) {
      const verified = opensslVerify(
        changedAt(bytes, at),
        FIXTURE_SEAL_AUTHORITY,
        field,
      );
      expect(verified.ok).toBe(false);
      expect(verified.output).toMatch(/digest failure|Verification failure/);
    }
  });

  it.skipIf(!hasPdfsig)(
    "is valid for poppler's pdfsig, which covers the total document, and invalid once a byte changes",
    async () => {
      const { bytes } = await renderDocumentPdf(document);
      const report = pdfsig(bytes);
      expect(report).toContain("Signature is Valid");
      expect(report).toContain("ETSI.CAdES.detached");
      expect(report).toContain("Total document signed");
      expect(pdfsig(changedAt(bytes, 400))).not.toContain("Signature is Valid");
    },
  );
});

if (!hasPdfsig) {
  console.warn(
    "pdfsig (poppler-utils) is not installed: its checks of the seal are skipped.",
  );
}

describe("the seal on the page", () => {
  it("page 1 names the seal in one line, in the locale's words and the Spanish; the QR code still decodes; the same input seals to the same bytes", async () => {
    const pdf = await renderDocumentPdf(input());
    const [first, second = ""] = await pageTexts(pdf.bytes);
    expect(squeezeSpaces(first ?? "")).toContain(
      `${CATALOGS.es.seal}: DeCA sello de PRUEBAS (local)`,
    );
    expect(second).not.toContain(CATALOGS.es.seal);
    // Bilingual like every label: the locale's words, then the Spanish.
    const [english = ""] = await pageTexts(
      (await renderDocumentPdf(input({ locale: "en" }))).bytes,
    );
    expect(squeezeSpaces(english)).toContain(
      `${CATALOGS.en.seal} / ${CATALOGS.es.seal}: DeCA sello de PRUEBAS (local)`,
    );
    expect(await decodeQrCode(pdf.bytes)).toBe(ISSUE.qrUrl);
    expect((await renderDocumentPdf(input())).bytes).toEqual(pdf.bytes);
  });
});

describe("a seal with a time-stamping authority", () => {
  const fetchIt = (request: Request) => fetch(request);

  it("is B-T with the authority's token over the signature, still valid for OpenSSL", async () => {
    const authority = await startTimestampAuthority();
    try {
      const before = Date.now();
      const pdf = await renderDocumentPdf(
        input({
          seal: fixtureSeal("test", { url: authority.url, send: fetchIt }),
        }),
      );
      expect(pdf.seal.level).toBe("B-T");
      expect(pdf.seal.timestamp).toBeGreaterThanOrEqual(
        Math.floor(before / 1000) * 1000 - 1000,
      );
      expect(pdf.seal.timestamp).toBeLessThanOrEqual(Date.now() + 1000);
      expect(authority.responses).toHaveLength(1);
      expect(cmsPrintout(pdf.bytes)).toContain("id-smime-aa-timeStampToken");
      const verified = opensslVerify(pdf.bytes, FIXTURE_SEAL_AUTHORITY);
      expect(verified.output).toContain("Verification successful");
    } finally {
      await authority.close();
    }
  });

  it("is B-B, and says so, when the authority does not answer in time", async () => {
    const authority = await startTimestampAuthority({ silent: true });
    try {
      const pdf = await renderDocumentPdf(
        input({
          seal: fixtureSeal("test", { url: authority.url, send: fetchIt }),
        }),
      );
      expect(pdf.seal).toEqual({
        level: "B-B",
        subject: "CN=DeCA sello de PRUEBAS (local), O=DeCA local, C=ES",
        timestamp: null,
      });
      expect(cmsPrintout(pdf.bytes)).not.toContain("timeStampToken");
      expect(opensslVerify(pdf.bytes, FIXTURE_SEAL_AUTHORITY).ok).toBe(true);
    } finally {
      await authority.close();
    }
  });
});

describe("npm start's local seals", () => {
  it("are certificates OpenSSL verifies against their local authority, named after their environment", async () => {
    const keyring = JSON.parse(await newSealKeyring()) as {
      keys: { v1: Record<string, { chain: string[] }> };
    };
    const der = (base64: string) =>
      Uint8Array.from(Buffer.from(base64, "base64"));
    for (const [environment, word] of [
      ["test", "PRUEBAS"],
      ["demo", "DEMO"],
      ["live", "sin validez"],
    ] as const) {
      const [certificate = "", authority = ""] =
        keyring.keys.v1[environment]?.chain ?? [];
      expect(
        opensslVerifyCertificate(der(certificate), der(authority)),
      ).toMatch(/: OK/);
      expect(readCertificate(der(certificate)).commonName).toContain(word);
    }
  });
});
