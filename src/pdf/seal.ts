import {
  type PDFDocument,
  PDFHexString,
  PDFName,
  type PDFPage,
  PDFString,
} from "@cantoo/pdf-lib";
import type { PdfSeal, SealFacts } from "../domain/documents/render-port";

// The service's electronic seal on the PDF: a PAdES baseline signature
// (ETSI EN 319 142-1), an invisible signature field whose dictionary
// reserves room for the CMS signature; once the file is written, its
// ByteRange is filled in and everything but that room is signed.

const REASON = "Documento de control — Orden FOM/2861/2012";
const LOCATION = "España";
// Ten digits: room for any offset the 5 MB limit allows, filled in after saving.
const UNKNOWN_OFFSET = 9_999_999_999;
const BYTE_RANGE_PLACEHOLDER = `/ByteRange [ 0 ${UNKNOWN_OFFSET} ${UNKNOWN_OFFSET} ${UNKNOWN_OFFSET} ]`;

/** Adds the seal's signature field to `page` (page 1), its time `signedAt`. */
export function addSealField(
  pdf: PDFDocument,
  page: PDFPage,
  seal: PdfSeal,
  signedAt: Date,
): void {
  const { context } = pdf;
  const signature = context.register(
    context.obj({
      Type: "Sig",
      Filter: "Adobe.PPKLite",
      SubFilter: "ETSI.CAdES.detached",
      ByteRange: [0, UNKNOWN_OFFSET, UNKNOWN_OFFSET, UNKNOWN_OFFSET],
      Contents: PDFHexString.of("00".repeat(seal.maxBytes)),
      M: PDFString.fromDate(signedAt),
      Name: PDFHexString.fromText(seal.name),
      Reason: PDFHexString.fromText(REASON),
      Location: PDFHexString.fromText(LOCATION),
    }),
  );
  // Invisible (a zero rectangle), printed, locked: the page prints the seal's line instead.
  const field = context.register(
    context.obj({
      Type: "Annot",
      Subtype: "Widget",
      FT: "Sig",
      T: PDFString.of("Sello"),
      Rect: [0, 0, 0, 0],
      F: 132,
      P: page.ref,
      V: signature,
    }),
  );
  page.node.set(PDFName.of("Annots"), context.obj([field]));
  pdf.catalog.set(
    PDFName.of("AcroForm"),
    // SignaturesExist and AppendOnly.
    context.obj({ Fields: [field], SigFlags: 3 }),
  );
}

/**
 * `bytes` sealed: the ByteRange written over its placeholder, then the CMS
 * signature of the SHA-256 of every byte but the Contents' hex string.
 */
export async function sealBytes(
  bytes: Uint8Array,
  seal: PdfSeal,
): Promise<{ bytes: Uint8Array; seal: SealFacts }> {
  const rangeAt = indexOf(bytes, BYTE_RANGE_PLACEHOLDER, 0);
  const contentsAt = indexOf(bytes, "/Contents <", rangeAt);
  if (rangeAt < 0 || contentsAt < 0) throw new Error("no seal field to sign");
  const holeStart = contentsAt + "/Contents ".length;
  const holeEnd = holeStart + 2 * seal.maxBytes + 2;
  const tail = bytes.length - holeEnd;
  const ranges = [0, holeStart, holeEnd, tail];
  const written = `/ByteRange [${ranges.join(" ")}]`.padEnd(
    BYTE_RANGE_PLACEHOLDER.length,
    " ",
  );
  const sealed = bytes.slice();
  sealed.set(new TextEncoder().encode(written), rangeAt);
  const signed = new Uint8Array(holeStart + tail);
  signed.set(sealed.subarray(0, holeStart));
  signed.set(sealed.subarray(holeEnd), holeStart);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", signed));
  const { cms, facts } = await seal.sign(digest);
  if (cms.length > seal.maxBytes) {
    throw new Error(
      `the seal's signature takes ${cms.length} bytes, more than the ${seal.maxBytes} reserved`,
    );
  }
  writeHex(sealed, holeStart + 1, cms);
  return { bytes: sealed, seal: facts };
}

// ASCII of "0"–"9", "a"–"f".
const HEX_DIGITS = Uint8Array.from("0123456789abcdef", (digit) =>
  digit.charCodeAt(0),
);

/** `data` as lowercase hex ASCII into `target` at `at`: no string built on the issuing path. */
function writeHex(target: Uint8Array, at: number, data: Uint8Array): void {
  data.forEach((byte, i) => {
    target[at + 2 * i] = HEX_DIGITS[byte >> 4] ?? 0;
    target[at + 2 * i + 1] = HEX_DIGITS[byte & 15] ?? 0;
  });
}

/** Where the ASCII `text` first occurs in `bytes` from `from`, or -1. */
function indexOf(bytes: Uint8Array, text: string, from: number): number {
  if (from < 0) return -1;
  const wanted = new TextEncoder().encode(text);
  const first = wanted[0];
  for (
    let at = bytes.indexOf(first ?? 0, from);
    at >= 0;
    at = bytes.indexOf(first ?? 0, at + 1)
  ) {
    if (wanted.every((byte, i) => bytes[at + i] === byte)) return at;
  }
  return -1;
}
