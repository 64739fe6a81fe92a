import {
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  type PDFRef,
} from "@cantoo/pdf-lib";
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

describe("the QR image", () => {
  it("is one sharp 1-bit image, embedded once however many pages draw it", async () => {
    const url = urlOfLength(100);
    const pdf = await PDFDocument.create();
    for (let page = 0; page < 3; page++) {
      drawQrCode(pdf.addPage([400, 400]), url, { x: 50, top: 350, size: 300 });
    }
    const bytes = await pdf.save();
    const loaded = await PDFDocument.load(bytes);
    const images = loaded.context
      .enumerateIndirectObjects()
      .filter(
        ([, object]) =>
          object instanceof PDFRawStream &&
          object.dict.get(PDFName.of("Subtype")) === PDFName.of("Image"),
      );
    expect(images).toHaveLength(1);
    const [ref, image] = images[0] as [PDFRef, PDFRawStream];
    expect(image.dict.get(PDFName.of("BitsPerComponent"))?.toString()).toBe(
      "1",
    );
    expect(image.dict.get(PDFName.of("Interpolate"))?.toString()).toBe("false");
    for (const page of loaded.getPages()) {
      const xObjects = page.node.Resources()?.lookup(PDFName.of("XObject"));
      expect(xObjects).toBeInstanceOf(PDFDict);
      expect((xObjects as PDFDict).values()).toContain(ref);
    }
    for (let page = 1; page <= 3; page++) {
      expect(await decodeQrCode(bytes, page)).toBe(url);
    }
  });
});
