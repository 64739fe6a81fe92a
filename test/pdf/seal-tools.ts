// Reads a PDF's seal with implementations that are not ours: MuPDF.js (the
// signature field, its dictionary and what its ByteRange covers; MuPDF.js
// has no signature validation of its own), OpenSSL (the CMS signature over
// the ByteRange, against the authority) and, where installed, poppler's
// pdfsig.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as mupdf from "mupdf";

/** The signature as MuPDF reads it. */
export interface SignatureField {
  fieldType: string;
  subFilter: string;
  byteRange: number[];
  contents: Uint8Array;
  name: string;
  reason: string;
  location: string;
  signingTime: string;
}

/** The one signature field of page 1, read by MuPDF. */
export function signatureField(bytes: Uint8Array): SignatureField {
  const document = new mupdf.PDFDocument(bytes);
  try {
    const [widget, ...others] = document.loadPage(0).getWidgets();
    if (!widget || others.length > 0)
      throw new Error("not one widget on page 1");
    const fields = document.getTrailer().get("Root", "AcroForm", "Fields");
    const signature = fields.get(0).get("V");
    const range = signature.get("ByteRange");
    return {
      fieldType: widget.getFieldType(),
      subFilter: signature.get("SubFilter").asName(),
      byteRange: Array.from({ length: range.length }, (_, i) =>
        range.get(i).asNumber(),
      ),
      contents: signature.get("Contents").asByteString(),
      name: signature.get("Name").asString(),
      reason: signature.get("Reason").asString(),
      location: signature.get("Location").asString(),
      signingTime: signature.get("M").asString(),
    };
  } finally {
    document.destroy();
  }
}

/** The bytes a ByteRange signs. */
function signedBytes(bytes: Uint8Array, byteRange: number[]): Uint8Array {
  const [a = 0, b = 0, c = 0, d = 0] = byteRange;
  return Buffer.concat([bytes.subarray(a, a + b), bytes.subarray(c, c + d)]);
}

/** The CMS signature's DER: the Contents without the trailing zeros of its room. */
function cmsOf(contents: Uint8Array): Uint8Array {
  // A DER SEQUENCE with a long length: 0x30 0x82 hi lo.
  const length = ((contents[2] ?? 0) << 8) + (contents[3] ?? 0) + 4;
  return contents.subarray(0, length);
}

const work = () => mkdtempSync(join(tmpdir(), "seal-"));

/**
 * `openssl cms -verify` of the PDF's signature over its ByteRange, against
 * `authority` (DER): its exit status and what it printed. `field`: the
 * signature as read before the file was changed.
 */
export function opensslVerify(
  bytes: Uint8Array,
  authority: Uint8Array,
  field = signatureField(bytes),
): { ok: boolean; output: string } {
  const dir = work();
  writeFileSync(join(dir, "signature.der"), cmsOf(field.contents));
  writeFileSync(join(dir, "signed.bin"), signedBytes(bytes, field.byteRange));
  writeFileSync(join(dir, "authority.der"), authority);
  execFileSync("openssl", [
    "x509",
    "-inform",
    "DER",
    "-in",
    join(dir, "authority.der"),
    "-out",
    join(dir, "authority.pem"),
  ]);
  const run = spawnSync(
    "openssl",
    [
      "cms",
      "-verify",
      "-binary",
      "-inform",
      "DER",
      "-in",
      join(dir, "signature.der"),
      "-content",
      join(dir, "signed.bin"),
      "-CAfile",
      join(dir, "authority.pem"),
      "-purpose",
      "any",
      "-out",
      "/dev/null",
    ],
    { encoding: "utf8" },
  );
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
}

/** OpenSSL's printout of the CMS signature's structure. */
export function cmsPrintout(bytes: Uint8Array): string {
  const dir = work();
  writeFileSync(
    join(dir, "signature.der"),
    cmsOf(signatureField(bytes).contents),
  );
  return execFileSync(
    "openssl",
    [
      "cms",
      "-cmsout",
      "-print",
      "-inform",
      "DER",
      "-in",
      join(dir, "signature.der"),
    ],
    { encoding: "utf8" },
  );
}

/** Whether poppler's pdfsig is installed. */
export const hasPdfsig = spawnSync("pdfsig", ["-v"]).error === undefined;

/** pdfsig's report of the PDF (its certificate is not trusted: only the signature counts). */
export function pdfsig(bytes: Uint8Array): string {
  const file = join(work(), "document.pdf");
  writeFileSync(file, bytes);
  const run = spawnSync("pdfsig", [file], { encoding: "utf8" });
  return `${run.stdout}${run.stderr}`;
}

/** `openssl verify` of `certificate` (DER) against `authority` (DER): its output. */
export function opensslVerifyCertificate(
  certificate: Uint8Array,
  authority: Uint8Array,
): string {
  const dir = work();
  const pem = (der: Uint8Array, name: string) => {
    writeFileSync(join(dir, `${name}.der`), der);
    execFileSync("openssl", [
      "x509",
      "-inform",
      "DER",
      "-in",
      join(dir, `${name}.der`),
      "-out",
      join(dir, `${name}.pem`),
    ]);
    return join(dir, `${name}.pem`);
  };
  const run = spawnSync(
    "openssl",
    [
      "verify",
      "-CAfile",
      pem(authority, "authority"),
      pem(certificate, "certificate"),
    ],
    { encoding: "utf8" },
  );
  return `${run.stdout}${run.stderr}`;
}
