import { PDFDocument } from "@cantoo/pdf-lib";
import { describe, expect, it } from "vitest";
import { drawQrCode } from "../../src/pdf/qr-code";
import { decodeQrCode } from "./pdf-tools";

/** A page with only the QR code of `text`, 300 points wide. */
async function qrPage(text: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([400, 400]);
  drawQrCode(page, text, { x: 50, top: 350, size: 300 });
  return pdf.save();
}

const urlOfLength = (length: number): string => {
  const base =
    "https://deca.example.com/d/0b6f4d2e-8c1a-4f3b-9e7d-5a2c1b0f9e84?k=";
  return (base + "Qm9vay1hLXRydWNrLXRvZGF5LXBsZWFzZQ".repeat(20)).slice(
    0,
    length,
  );
};

describe("the QR code", () => {
  // Versions 1 to 13, with one and two block groups and version information (7+).
  it.each([1, 14, 20, 60, 100, 107, 150, 200, 280, 330])(
    "encodes %i bytes so that a reader decodes them back",
    async (length) => {
      const text = urlOfLength(length);
      expect(await decodeQrCode(await qrPage(text))).toBe(text);
    },
  );

  it("reads non-ASCII text as UTF-8", async () => {
    const text = "https://deca.example.com/d/Łódź-Ștefan-Ελλάδα-Москва";
    expect(await decodeQrCode(await qrPage(text))).toBe(text);
  });
});
