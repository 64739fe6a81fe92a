import { PDFDocument } from "@cantoo/pdf-lib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FULL_DOCUMENT, ISSUE } from "../../fixtures/documents";
import { drawQrCode } from "../../src/pdf/qr-code";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import { checkPdfStructure, decodeQrCode } from "./pdf-tools";

/** One character a byte, and back. */
const latin1 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(
    "latin1",
  );

/** `bytes` with the first match of `pattern` replaced, the match shown to exist. */
function replaced(
  bytes: Uint8Array,
  pattern: RegExp,
  replacement: (match: string) => string,
): Uint8Array {
  const text = latin1(bytes);
  const match = pattern.exec(text);
  expect(match).not.toBeNull();
  const at = match?.index ?? 0;
  const changed =
    text.slice(0, at) +
    replacement(match?.[0] ?? "") +
    text.slice(at + (match?.[0].length ?? 0));
  return new Uint8Array(Buffer.from(changed, "latin1"));
}

const documentPdf = async (): Promise<Uint8Array> =>
  (
    await renderDocumentPdf({
      data: FULL_DOCUMENT,
      ...ISSUE,
      locale: "es",
      environment: "live",
    })
  ).bytes;

/** The same document written with a classic cross-reference table. */
async function classicPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(await documentPdf());
  const bytes = await pdf.save({ useObjectStreams: false });
  // pdf-lib counts one object too many in this layout; qpdf warns of it too.
  const entries = Number(/\nxref\n0 (\d+)/.exec(latin1(bytes))?.[1]);
  return replaced(bytes, /\/Size \d+/, () => `/Size ${entries}`);
}

describe("reading the QR code", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  // First in the file: ZXing loads its WebAssembly on the first read.
  it("needs no network to load the reader", async () => {
    const fetch = vi.fn(() => Promise.reject(new Error("no network")));
    vi.stubGlobal("fetch", fetch);
    const pdf = await PDFDocument.create();
    drawQrCode(pdf.addPage([200, 200]), "https://example.com/d/1", {
      x: 25,
      top: 175,
      size: 150,
    });

    expect(await decodeQrCode(await pdf.save())).toBe(
      "https://example.com/d/1",
    );
    expect(fetch).not.toHaveBeenCalled();
  });

  it("fails on a page without one", async () => {
    const pdf = await PDFDocument.create();
    pdf.addPage([200, 200]);
    await expect(decodeQrCode(await pdf.save())).rejects.toThrow(/no QR code/);
  });
});

describe("the structure check", () => {
  it("passes a rendered document in both cross-reference layouts", async () => {
    await checkPdfStructure(await documentPdf());
    await checkPdfStructure(await classicPdf());
  });

  it.each<[string, (pdf: Uint8Array) => Uint8Array, RegExp]>([
    [
      "cut short",
      (pdf) => pdf.subarray(0, pdf.length - 100),
      /not its \/Length/,
    ],
    [
      "with every offset one byte off",
      (pdf) => replaced(pdf, /%PDF-1\.\d\n/, (header) => `${header} `),
      /startxref \d+ is not the cross-reference section/,
    ],
    [
      "with an object not closed",
      (pdf) => replaced(pdf, /endobj(?![\s\S]*endobj)/, () => "endobk"),
      /expected endobj/,
    ],
    [
      "with a stream longer than its /Length says",
      (pdf) =>
        replaced(
          pdf,
          /\/Length \d*[1-9]\b/,
          (length) => `${length.slice(0, -1)}${Number(length.slice(-1)) - 1}`,
        ),
      /not its \/Length/,
    ],
    [
      "with a damaged compressed stream",
      (pdf) =>
        replaced(
          pdf,
          /\/Length \d{4,}[\s\S]*?stream\n[\s\S]{100}/,
          (start) => `${start.slice(0, -1)}${start.endsWith("x") ? "y" : "x"}`,
        ),
      /zlib error/,
    ],
    [
      "with an unknown token in an object",
      (pdf) =>
        replaced(pdf, /\/MediaBox \[ 0 0 595\.28 841\.89 \]/, (box) =>
          box.replace("841.89", "841.8w"),
        ),
      /unknown token/,
    ],
  ])("rejects a document %s", async (_, damage, fault) => {
    await expect(
      checkPdfStructure(damage(await documentPdf())),
    ).rejects.toThrow(fault);
  });

  it("rejects an ill-formed entry of a classic cross-reference table", async () => {
    const damaged = replaced(
      await classicPdf(),
      /\n0000000076 00000 n \n/,
      (entry) => entry.replace("00000 n ", "0000 n "),
    );
    await expect(checkPdfStructure(damaged)).rejects.toThrow(
      /ill-formed entry/,
    );
  });
});
