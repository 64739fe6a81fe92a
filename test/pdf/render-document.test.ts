import { PDFDocument, PDFName, PDFString } from "@cantoo/pdf-lib";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  FULL_DOCUMENT,
  fullDocumentInput,
  ISSUE,
  LONG_DOCUMENT,
  MINIMAL_DOCUMENT,
  RECTIFIED_VERSION,
} from "../../fixtures/documents";
import type { DocumentPdfInput } from "../../src/domain/documents/render-port";
import {
  CATALOGS,
  documentWording,
  MESSAGE_KEYS,
  type MessageKey,
} from "../../src/pdf/i18n";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import { DOCUMENT_LOCALES } from "../../src/schemas/document-locale";
import { ENVIRONMENTS } from "../../src/schemas/environment";
import { cutOnPageOne } from "./continuations";
import { pageContents } from "./page-frames";
import {
  checkPdfStructure,
  decodeQrCode,
  pageTexts,
  renderPage,
  squeezeSpaces,
} from "./pdf-tools";

const input = (overrides: Partial<DocumentPdfInput> = {}) =>
  fullDocumentInput("live", overrides);

/** The whole text of a PDF, whitespace squeezed. */
async function textOf(bytes: Uint8Array): Promise<string> {
  return squeezeSpaces((await pageTexts(bytes)).join(" "));
}

/**
 * The share of a page's pixels that the marked version darkens: the large
 * diagonal watermark, which its extracted text alone cannot show.
 */
async function watermarkShare(
  marked: Uint8Array,
  real: Uint8Array,
  pageNumber: number,
): Promise<number> {
  const markedPage = await renderPage(marked, 30, pageNumber);
  const realPage = await renderPage(real, 30, pageNumber);
  let darkened = 0;
  markedPage.pixels.forEach((level, index) => {
    if (level < (realPage.pixels[index] ?? 0) - 8) darkened++;
  });
  return darkened / markedPage.pixels.length;
}

/** Every data item of a single-shipment document as the PDF prints it. */
function printedItems(data: typeof FULL_DOCUMENT): string[] {
  const { shipper, carrier, origin, destination, goods, vehicle } = data;
  const addressItems = (address: {
    street: string | null;
    postal_code: string | null;
    city: string;
  }) => [address.street, `${address.postal_code} ${address.city}`];
  return [
    // Day, month, year, as a Spanish reader writes a date.
    data.transport_date.split("-").reverse().join("/"),
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

/**
 * Labels that every single-shipment document from the peninsula prints (the
 * others belong to demos, corrections, the Canary Islands, the other
 * quantity, grouped documents or texts too long for page 1; the
 * registrations' own labels name them in a correction's changes).
 */
const ALWAYS_PRINTED = MESSAGE_KEYS.filter(
  (key): key is MessageKey =>
    ![
      "notValid",
      "rectifies",
      "changeOfVehicle",
      "changes",
      "noChanges",
      "shipment",
      "shipmentAdded",
      "shipmentRemoved",
      "becameGrouped",
      "becameSingle",
      "rectificationContinued",
      "canaryTime",
      "alternativeMeasure",
      "shipments",
      "shipmentsContinued",
      "shipmentNumber",
      "weightOrMeasure",
      "totalWeight",
      "vehicleRegistration",
      "trailerRegistration",
      "continued",
      "continuedOnPage",
    ].includes(key),
);

describe("the control document in every locale", () => {
  for (const locale of DOCUMENT_LOCALES) {
    it(`prints every data item and every label in ${locale}, with the Spanish beside it, on one page`, async () => {
      const pdf = await renderDocumentPdf(input({ locale }));
      const text = await textOf(pdf.bytes);
      const { own, printed } = documentWording(locale);

      for (const item of printedItems(FULL_DOCUMENT)) {
        expect(text).toContain(squeezeSpaces(item));
      }
      for (const name of ["Łódź", "Ștefan", "Ελλάδα", "Москва", "Iași"]) {
        expect(text).toContain(name);
      }
      expect(text).toContain("12.345,679 kg");
      expect(text).toContain(ISSUE.uuid);
      expect(text).not.toContain(FULL_DOCUMENT.transport_date);
      expect(text).toContain(
        `21/11/2026 13:00 (UTC+01:00, ${printed.peninsularTime})`,
      );
      for (const key of ALWAYS_PRINTED) {
        expect(text).toContain(squeezeSpaces(own[key]));
        expect(text).toContain(squeezeSpaces(CATALOGS.es[key]));
      }
      expect(text).toContain(`${printed.page} 1/1`);
      expect(text).not.toContain(own.notValid);

      expect(pdf.pages).toBe(1);
      expect(pdf.bytes.length).toBeLessThan(25 * 1024);
      await checkPdfStructure(pdf.bytes);
    });
  }
});

describe("the languages of a document", () => {
  it("prints a Spanish document in Spanish only", async () => {
    const text = await textOf((await renderDocumentPdf(input())).bytes);
    expect(text).not.toContain(" / ");
    expect(text).toContain("Peso 12.345,679 kg");
  });

  it("prints the Spanish after each label of another language, once where they are the same", async () => {
    const english = await textOf(
      (await renderDocumentPdf(input({ locale: "en" }))).bytes,
    );
    expect(english).toContain("Weight / Peso 12.345,679 kg");
    expect(english).toContain("Trailer / Remolque R1234BCD (ES)");
    // Page 1's header: the title over the Spanish title, then the
    // identifier; the page number, to the right, comes after them in MuPDF's
    // reading order.
    expect(english).toContain(
      `Control document Documento de control Document identifier / Identificador del documento: ${ISSUE.uuid} Page / Página 1/1`,
    );
    expect(english).toContain(
      "21/11/2026 13:00 (UTC+01:00, mainland Spain time / hora peninsular)",
    );
    const galician = await textOf(
      (await renderDocumentPdf(input({ locale: "gl" }))).bytes,
    );
    expect(galician).toContain("Peso 12.345,679 kg");
    expect(galician).toContain("(UTC+01:00, hora peninsular)");
  });
});

describe("the time of issue", () => {
  it("is the time of the Canary Islands for a transport loaded there", async () => {
    const canary = {
      ...FULL_DOCUMENT,
      origin: { ...FULL_DOCUMENT.origin, postal_code: "35008" },
    };
    const spanish = await textOf(
      (await renderDocumentPdf(input({ data: canary }))).bytes,
    );
    expect(spanish).toContain("21/11/2026 12:00 (UTC+00:00, hora canaria)");
    const english = await textOf(
      (await renderDocumentPdf(input({ data: canary, locale: "en" }))).bytes,
    );
    expect(english).toContain(
      "21/11/2026 12:00 (UTC+00:00, Canary Islands time / hora canaria)",
    );
  });
});

describe("a correction", () => {
  const correction = (overrides: Partial<DocumentPdfInput> = {}) =>
    input({ rectifies: RECTIFIED_VERSION, ...overrides });

  it("names the version it rectifies by reference and uuid, then the change of vehicle, then each change as old → new, in every locale, on page 1", async () => {
    const { uuid } = RECTIFIED_VERSION;
    const english = await textOf(
      (await renderDocumentPdf(correction({ locale: "en" }))).bytes,
    );
    expect(english).toContain(
      `Rectifies document / Rectifica el documento PED-2026-0041 (${uuid}) Change of vehicle (Order FOM/2861/2012, art. 6 g) / Cambio de vehículo (Orden FOM/2861/2012, art. 6 g) Changes / Cambios`,
    );
    // The plates first, the change of vehicle being the first thing checked.
    expect(english).toContain(
      "• Vehicle registration / Matrícula del vehículo: 5678FGH (ES) → 1234BCD (ES) • Weight / Peso: 12.000 kg → 12.345,679 kg",
    );
    for (const locale of DOCUMENT_LOCALES) {
      const pdf = await renderDocumentPdf(correction({ locale }));
      const [first = ""] = await pageTexts(pdf.bytes);
      const text = squeezeSpaces(first);
      const { printed } = documentWording(locale);
      expect(text).toContain(`${printed.rectifies} PED-2026-0041 (${uuid})`);
      expect(text).toContain(squeezeSpaces(printed.changeOfVehicle));
      expect(text).toContain(
        `${printed.vehicleRegistration}: 5678FGH (ES) → 1234BCD (ES)`,
      );
      expect(text).toContain(`${printed.weight}: 12.000 kg → 12.345,679 kg`);
      expect(text).not.toContain(squeezeSpaces(printed.noChanges));
    }
  });

  it("names a version without a reference by its uuid alone", async () => {
    const unnamed = {
      ...RECTIFIED_VERSION,
      data: { ...RECTIFIED_VERSION.data, reference: null },
    };
    const text = await textOf(
      (await renderDocumentPdf(correction({ rectifies: unnamed }))).bytes,
    );
    expect(text).toContain(
      `Rectifica el documento ${RECTIFIED_VERSION.uuid} Cambio de vehículo`,
    );
  });

  it("prints a long text changed by its label alone, and a value not given as —", async () => {
    const before = {
      ...FULL_DOCUMENT,
      origin: {
        ...FULL_DOCUMENT.origin,
        place: "Almacén Sur",
        street: "Otra 1",
      },
      goods: { ...FULL_DOCUMENT.goods, description: "Otra mercancía" },
      vehicle: {
        ...FULL_DOCUMENT.vehicle,
        trailer_registration: null,
        trailer_country: null,
      },
      observations: "Otras observaciones",
    };
    const text = await textOf(
      (
        await renderDocumentPdf(
          correction({
            locale: "en",
            rectifies: { ...RECTIFIED_VERSION, data: before },
          }),
        )
      ).bytes,
    );
    expect(text).toContain(
      "Changes / Cambios • Trailer or semi-trailer registration / Matrícula del remolque o semirremolque: — → R1234BCD (ES) • Origin (place of loading) — Place / Origen (lugar de carga) — Lugar: Almacén Sur → Almacén Ελλάδα Foods, muelle 3 • Origin (place of loading) — Address / Origen (lugar de carga) — Dirección • Nature of the goods / Naturaleza de la mercancía • Observations / Observaciones",
    );
    expect(text).not.toContain("Otra");
  });

  it("says that no data changed when none did", async () => {
    const unchanged = { ...RECTIFIED_VERSION, data: FULL_DOCUMENT };
    const english = await textOf(
      (
        await renderDocumentPdf(
          correction({ locale: "en", rectifies: unchanged }),
        )
      ).bytes,
    );
    expect(english).toContain(
      "No transport data has changed / Ningún dato del transporte ha cambiado",
    );
    expect(english).not.toContain("Changes");
    expect(english).not.toContain("Change of vehicle");
    const spanish = await textOf(
      (await renderDocumentPdf(correction({ rectifies: unchanged }))).bytes,
    );
    expect(spanish).toContain("Ningún dato del transporte ha cambiado");
    expect(spanish).not.toContain("Cambios");
  });
});

describe("a control document", () => {
  it("carries a QR code that reads back as the download link", async () => {
    for (const environment of ENVIRONMENTS) {
      const pdf = await renderDocumentPdf(input({ environment }));
      expect(await decodeQrCode(pdf.bytes)).toBe(ISSUE.qrUrl);
    }
  });

  it("prints the reference once on page 1, whole under the key facts, and in the header of every later page, in every locale", async () => {
    const { reference } = LONG_DOCUMENT;
    for (const locale of DOCUMENT_LOCALES) {
      const pdf = await renderDocumentPdf(
        input({ data: LONG_DOCUMENT, locale }),
      );
      const [first = "", ...later] = (await pageTexts(pdf.bytes)).map(
        squeezeSpaces,
      );
      const { printed } = documentWording(locale);
      expect(first.split(CATALOGS.es.reference), locale).toHaveLength(2);
      expect(first, locale).toContain(`${printed.reference} ${reference}`);
      expect(later.length).toBeGreaterThan(0);
      for (const text of later) {
        expect(text, locale).toContain(`${printed.reference}: ${reference}`);
      }
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

  it("says DEMO and the localized not valid in a demo's title, its language unchanged", async () => {
    const pdf = await renderDocumentPdf(
      input({ locale: "ca-valencia", environment: "demo" }),
    );
    const loaded = await PDFDocument.load(pdf.bytes, { updateMetadata: false });

    expect(loaded.getTitle()).toBe(
      `DEMO — SENSE VALIDESA — Document de control ${ISSUE.uuid}`,
    );
    const language = loaded.catalog.lookup(PDFName.of("Lang"), PDFString);
    expect(language.decodeText()).toBe("ca-ES-valencia");
  });

  it("prints a dash for what was not given, and the alternative measure", async () => {
    const pdf = await renderDocumentPdf(
      input({ data: MINIMAL_DOCUMENT, locale: "en" }),
    );
    const text = await textOf(pdf.bytes);

    expect(text).toContain(
      "Quantity (other measure) / Cantidad (otra medida) 35,5 m³",
    );
    expect(text).toContain("Reference / Referencia —");
    expect(text).toContain("Observations / Observaciones —");
    expect(text).toContain("Juan Pérez");
    expect(text).toContain("Finca El Olivar");
    expect(text).toContain("Lorca ES");
    expect(text).not.toContain(" kg");
    await checkPdfStructure(pdf.bytes);
  });

  it("marks a demo as not valid, with DEMO across the page", async () => {
    const real = await renderDocumentPdf(input());
    expect(await watermarkShare(real.bytes, real.bytes, 1)).toBe(0);
    expect(await textOf(real.bytes)).not.toMatch(/\bDEMO\b/);
    for (const locale of DOCUMENT_LOCALES) {
      const demo = await renderDocumentPdf(
        input({ locale, environment: "demo" }),
      );
      const text = await textOf(demo.bytes);
      expect(text).toContain(CATALOGS[locale].notValid);
      expect(text).toMatch(/\bDEMO\b/);
      expect(await watermarkShare(demo.bytes, real.bytes, 1)).toBeGreaterThan(
        0.04,
      );
      await checkPdfStructure(demo.bytes);
    }
  });

  it("marks every page of a test document PRUEBAS and SIN VALIDEZ, in every locale, its fields and QR code read on each; a live one neither", async () => {
    for (const locale of DOCUMENT_LOCALES) {
      const long = input({ data: LONG_DOCUMENT, locale });
      const live = await renderDocumentPdf(long);
      const liveText = await textOf(live.bytes);
      expect(liveText).not.toContain("PRUEBAS");
      expect(liveText).not.toContain("SIN VALIDEZ");

      const pdf = await renderDocumentPdf({ ...long, environment: "test" });
      const pages = (await pageTexts(pdf.bytes)).map(squeezeSpaces);
      expect(pdf.pages).toBeGreaterThan(1);
      expect(pdf.pages).toBe(live.pages);
      for (let page = 1; page <= pdf.pages; page++) {
        const text = pages[page - 1];
        expect(text, `${locale}, page ${page}`).toMatch(/\bPRUEBAS\b/);
        expect(text, `${locale}, page ${page}`).toContain("SIN VALIDEZ");
        expect(await decodeQrCode(pdf.bytes, page), `page ${page}`).toBe(
          ISSUE.qrUrl,
        );
        expect(
          await watermarkShare(pdf.bytes, live.bytes, page),
        ).toBeGreaterThan(0.04);
      }
      // Every field prints as on the live document, the marks aside.
      expect(pageContents(pages, locale, { environment: "test" })).toEqual(
        pageContents((await pageTexts(live.bytes)).map(squeezeSpaces), locale),
      );
      await checkPdfStructure(pdf.bytes);
    }
  });

  it("says PRUEBAS and SIN VALIDEZ before a test document's title, the title a browser shows for its QR link", async () => {
    const pdf = await renderDocumentPdf(
      input({ locale: "en", environment: "test" }),
    );
    const loaded = await PDFDocument.load(pdf.bytes, { updateMetadata: false });
    expect(loaded.getTitle()).toBe(
      `PRUEBAS — SIN VALIDEZ — Control document ${ISSUE.uuid}`,
    );
  });

  it("cuts a long description on page 1 and lets long observations flow, each going on under its own label, every page with header, page number, uuid and watermark", async () => {
    const long = input({ data: LONG_DOCUMENT, locale: "fr" });
    const pdf = await renderDocumentPdf({ ...long, environment: "demo" });
    const real = await renderDocumentPdf(long);
    const pages = (await pageTexts(pdf.bytes)).map(squeezeSpaces);

    expect(pdf.pages).toBeGreaterThan(1);
    expect(pages).toHaveLength(pdf.pages);
    expect(real.pages).toBe(pdf.pages);
    for (let page = 1; page <= pdf.pages; page++) {
      expect(await watermarkShare(pdf.bytes, real.bytes, page)).toBeGreaterThan(
        0.04,
      );
    }
    const contents = pageContents(pages, "fr", { environment: "demo" });
    for (const [text, heading] of [
      [
        LONG_DOCUMENT.goods.description,
        "Marchandise (suite) / Mercancía (continuación) Nature de la marchandise / Naturaleza de la mercancía",
      ],
      [
        LONG_DOCUMENT.observations ?? "",
        "Observations (suite) / Observaciones (continuación)",
      ],
    ] as const) {
      expect(cutOnPageOne(contents, text, heading, "fr"), heading).toBe(true);
    }
    await checkPdfStructure(pdf.bytes);
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
