import { PDFDocument, PDFName, PDFString } from "@cantoo/pdf-lib";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  FULL_DOCUMENT,
  ISSUE,
  LONG_DOCUMENT,
  MINIMAL_DOCUMENT,
} from "../../fixtures/documents";
import { CATALOGS, MESSAGE_KEYS, type MessageKey } from "../../src/pdf/i18n";
import {
  type DocumentPdfInput,
  renderDocumentPdf,
} from "../../src/pdf/render-document";
import { DOCUMENT_LOCALES } from "../../src/schemas/document-locale";
import type { DocumentData } from "../../src/schemas/document-request";
import {
  decodeQrCode,
  pageTexts,
  qpdfCheck,
  renderPage,
  squeezeSpaces,
} from "./pdf-tools";

const input = (
  overrides: Partial<DocumentPdfInput> = {},
): DocumentPdfInput => ({
  data: FULL_DOCUMENT,
  ...ISSUE,
  locale: "es",
  demo: false,
  ...overrides,
});

/** The whole text of a PDF, whitespace squeezed. */
async function textOf(bytes: Uint8Array): Promise<string> {
  return squeezeSpaces((await pageTexts(bytes)).join(" "));
}

/**
 * The share of a page's pixels that the demo version darkens: the large
 * diagonal DEMO watermark, which its extracted text alone cannot show.
 */
async function watermarkShare(
  demo: Uint8Array,
  real: Uint8Array,
  pageNumber: number,
): Promise<number> {
  const demoPage = await renderPage(demo, 30, pageNumber);
  const realPage = await renderPage(real, 30, pageNumber);
  let darkened = 0;
  demoPage.pixels.forEach((level, index) => {
    if (level < (realPage.pixels[index] ?? 0) - 8) darkened++;
  });
  return darkened / demoPage.pixels.length;
}

/** Every data item of a document as the PDF prints it. */
function printedItems(data: DocumentData): string[] {
  const { shipper, carrier, origin, destination, goods, vehicle } = data;
  const addressItems = (address: {
    street: string | null;
    postal_code: string | null;
    city: string;
  }) => [address.street, `${address.postal_code} ${address.city}`];
  return [
    data.transport_date,
    data.reference,
    shipper.name,
    `${shipper.tax_id} (${shipper.tax_country})`,
    ...addressItems(shipper.address),
    carrier.name,
    `${carrier.tax_id} (${carrier.tax_country})`,
    ...(carrier.address ? addressItems(carrier.address) : []),
    origin.place,
    ...addressItems(origin),
    destination.place,
    ...addressItems(destination),
    goods.description,
    `${vehicle.registration} (${vehicle.country})`,
    `${vehicle.trailer_registration} (${vehicle.trailer_country})`,
    data.special_authorization?.number,
    data.special_authorization?.issuer,
    data.observations,
  ].filter((item): item is string => typeof item === "string");
}

/** Labels that every document prints (the others belong to demos, corrections or the other quantity). */
const ALWAYS_PRINTED = MESSAGE_KEYS.filter(
  (key): key is MessageKey =>
    !["notValid", "rectifies", "alternativeMeasure"].includes(key),
);

describe("the control document in every locale", () => {
  for (const locale of DOCUMENT_LOCALES) {
    it(`prints every data item and every label in ${locale}`, async () => {
      const pdf = await renderDocumentPdf(input({ locale }));
      const text = await textOf(pdf.bytes);
      const messages = CATALOGS[locale];

      for (const item of printedItems(FULL_DOCUMENT)) {
        expect(text).toContain(squeezeSpaces(item));
      }
      for (const name of ["Łódź", "Ștefan", "Ελλάδα", "Москва", "Iași"]) {
        expect(text).toContain(name);
      }
      expect(text).toContain("12.345,679 kg");
      expect(text).toContain(ISSUE.uuid);
      expect(text).toContain("2026-11-21 12:00:00 UTC");
      for (const key of ALWAYS_PRINTED) {
        expect(text).toContain(squeezeSpaces(messages[key]));
      }
      expect(text).toContain(`${messages.page} 1/1`);
      expect(text).not.toContain(messages.notValid);

      expect(pdf.pages).toBe(1);
      expect(pdf.bytes.length).toBeLessThan(60 * 1024);
      await qpdfCheck(pdf.bytes);
    });
  }
});

describe("a control document", () => {
  it("carries a QR code that reads back as the download link", async () => {
    for (const demo of [false, true]) {
      const pdf = await renderDocumentPdf(input({ demo }));
      expect(await decodeQrCode(pdf.bytes)).toBe(ISSUE.qrUrl);
    }
  });

  it("states its title, language, producer and dates in its metadata", async () => {
    const pdf = await renderDocumentPdf(input({ locale: "ca-valencia" }));
    const loaded = await PDFDocument.load(pdf.bytes, { updateMetadata: false });

    expect(loaded.getTitle()).toBe(`Document de control ${ISSUE.uuid}`);
    expect(loaded.getProducer()).toMatch(/DeCA/);
    expect(loaded.getCreationDate()?.getTime()).toBe(ISSUE.createdAt);
    expect(loaded.getModificationDate()?.getTime()).toBe(ISSUE.createdAt);
    const language = loaded.catalog.lookup(PDFName.of("Lang"), PDFString);
    expect(language.decodeText()).toBe("ca-ES-valencia");
  });

  it("prints a dash for what was not given, and the alternative measure", async () => {
    const pdf = await renderDocumentPdf(
      input({ data: MINIMAL_DOCUMENT, locale: "en" }),
    );
    const text = await textOf(pdf.bytes);

    expect(text).toContain("Quantity (other measure) 35,5 m³");
    expect(text).toContain("Reference —");
    expect(text).toContain("Observations —");
    expect(text).toContain("Juan Pérez");
    expect(text).toContain("Finca El Olivar");
    expect(text).toContain("Lorca ES");
    expect(text).not.toContain(" kg");
    await qpdfCheck(pdf.bytes);
  });

  it("names the document that a correction rectifies", async () => {
    const rectifiesUuid = "7c0e9a51-2b3d-4e6f-8a9b-0c1d2e3f4a5b";
    for (const locale of DOCUMENT_LOCALES) {
      const pdf = await renderDocumentPdf(input({ locale, rectifiesUuid }));
      const text = await textOf(pdf.bytes);
      expect(text).toContain(`${CATALOGS[locale].rectifies} ${rectifiesUuid}`);
    }
  });

  it("marks a demo as not valid, with DEMO across the page", async () => {
    const real = await renderDocumentPdf(input());
    expect(await watermarkShare(real.bytes, real.bytes, 1)).toBe(0);
    expect(await textOf(real.bytes)).not.toMatch(/\bDEMO\b/);
    for (const locale of DOCUMENT_LOCALES) {
      const demo = await renderDocumentPdf(input({ locale, demo: true }));
      const text = await textOf(demo.bytes);
      expect(text).toContain(CATALOGS[locale].notValid);
      expect(text).toMatch(/\bDEMO\b/);
      expect(await watermarkShare(demo.bytes, real.bytes, 1)).toBeGreaterThan(
        0.04,
      );
      await qpdfCheck(demo.bytes);
    }
  });

  it("flows long observations and descriptions onto further pages, each with header, page number, uuid and watermark", async () => {
    const messages = CATALOGS.fr;
    const long = input({ data: LONG_DOCUMENT, locale: "fr" });
    const pdf = await renderDocumentPdf({ ...long, demo: true });
    const real = await renderDocumentPdf(long);
    const pages = (await pageTexts(pdf.bytes)).map(squeezeSpaces);

    expect(pdf.pages).toBeGreaterThan(1);
    expect(pages).toHaveLength(pdf.pages);
    const frames = pages.map((_, index) => [
      "DEMO",
      messages.title,
      messages.notValid,
      `${messages.page} ${index + 1}/${pdf.pages}`,
      `${messages.documentId}: ${ISSUE.uuid}`,
      squeezeSpaces(messages.legalBasis),
    ]);
    pages.forEach((text, index) => {
      for (const part of frames[index] ?? []) expect(text).toContain(part);
    });
    expect(real.pages).toBe(pdf.pages);
    for (let page = 1; page <= pdf.pages; page++) {
      expect(await watermarkShare(pdf.bytes, real.bytes, page)).toBeGreaterThan(
        0.04,
      );
    }

    // Without the frames, the pages read as one text, nothing lost at the breaks.
    const content = pages
      .map((text, index) =>
        (frames[index] ?? []).reduce(
          (rest, part) => rest.replace(part, ""),
          text,
        ),
      )
      .join(" ");
    for (const text of [
      LONG_DOCUMENT.goods.description,
      LONG_DOCUMENT.observations ?? "",
    ]) {
      expect(squeezeSpaces(content)).toContain(squeezeSpaces(text));
    }
    await qpdfCheck(pdf.bytes);
  });

  it("prints a question mark for a character the font lacks", async () => {
    const pdf = await renderDocumentPdf(
      input({
        data: { ...FULL_DOCUMENT, observations: "Frágil 🚚 東京 fin" },
      }),
    );
    const text = await textOf(pdf.bytes);

    expect(text).toContain("Frágil ? ?? fin");
    await qpdfCheck(pdf.bytes);
  });

  // With timers frozen, a render that waited on one would never finish.
  it("renders without waiting on a timer", { timeout: 10_000 }, async () => {
    vi.useFakeTimers({
      toFake: ["setTimeout", "setInterval", "setImmediate"],
    });
    const pdf = await renderDocumentPdf(input({ data: LONG_DOCUMENT }));

    expect(pdf.pages).toBeGreaterThan(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it("gives the same bytes for the same document, whatever was rendered before", async () => {
    const first = await renderDocumentPdf(input());
    await renderDocumentPdf(input({ data: LONG_DOCUMENT, locale: "eu" }));
    const again = await renderDocumentPdf(input());

    expect(again.bytes).toEqual(first.bytes);
  });
});
