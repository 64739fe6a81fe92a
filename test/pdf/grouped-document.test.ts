import { describe, expect, it } from "vitest";
import {
  FULL_DOCUMENT,
  groupedDocument,
  ISSUE,
  RECTIFIED_VERSION,
} from "../../fixtures/documents";
import { MAX_PDF_BYTES } from "../../src/domain/documents/pdf-size";
import type { DocumentPdfInput } from "../../src/domain/documents/render-port";
import { continuedTitle } from "../../src/pdf/continued-text";
import { formatDate } from "../../src/pdf/format";
import { CATALOGS, documentWording } from "../../src/pdf/i18n";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import { DOCUMENT_LOCALES } from "../../src/schemas/document-locale";
import type {
  DocumentData,
  Shipment,
} from "../../src/schemas/document-request";
import { contentWithoutFrames } from "./page-frames";
import {
  checkPdfStructure,
  decodeQrCode,
  pageTexts,
  squeezeSpaces,
} from "./pdf-tools";
import { renderInput } from "./render-input";

const input = renderInput;

const shipmentsIn = (data: DocumentData): Shipment[] =>
  "shipments" in data ? data.shipments : [];

/** A shipment's texts in the order its row prints them. */
const rowTexts = ({ origin, destination, goods }: Shipment): string[] =>
  [origin, destination]
    .flatMap((location) => [
      location.place,
      location.street ?? "",
      location.postal_code ?? "",
      location.city,
    ])
    .concat(goods.description);

/**
 * Where each of `texts` is found in `text`, each after the one before it,
 * or -1 from the first one missing.
 */
function positionsInOrder(text: string, texts: readonly string[]): number[] {
  let from = 0;
  return texts.map((part) => {
    const at = from < 0 ? -1 : text.indexOf(squeezeSpaces(part), from);
    from = at < 0 ? -1 : at + 1;
    return at;
  });
}

describe("a grouped document", () => {
  it("prints, in every locale, the key facts, parties and QR code on page 1, then its shipments numbered in order, with the total weight", async () => {
    const data = groupedDocument(2);
    for (const locale of DOCUMENT_LOCALES) {
      const pdf = await renderDocumentPdf(input(data, { locale }));
      const pages = (await pageTexts(pdf.bytes)).map(squeezeSpaces);
      const { printed } = documentWording(locale);
      const titles = [
        printed.shipmentNumber,
        printed.origin,
        printed.destination,
        printed.description,
        printed.weightOrMeasure,
      ];
      const [first = ""] = pages;
      const keyFacts = [
        printed.vehicle,
        "1234BCD (ES)",
        printed.transportDate,
        formatDate(FULL_DOCUMENT.transport_date),
        printed.totalWeight,
        "4 kg",
        `${printed.route} · ${printed.shipments}: 2`,
        "S1 dock → S2 shop",
        FULL_DOCUMENT.shipper.name,
        FULL_DOCUMENT.carrier.name,
      ];
      expect(positionsInOrder(first, keyFacts), first).not.toContain(-1);
      // The table, from page 1 on, its heading continued on a page after.
      const content = contentWithoutFrames(pages, locale, {
        repeated: [[printed.shipmentsContinued, ...titles].join(" ")],
      });
      const order = positionsInOrder(content, [
        ...keyFacts,
        printed.shipments,
        ...titles,
        ...shipmentsIn(data).flatMap((shipment, index) => [
          String(index + 1),
          ...rowTexts(shipment),
          `${index + 1},5 kg`,
        ]),
        printed.totalWeight,
        "4 kg",
        printed.observations,
      ]);
      expect(order, content).not.toContain(-1);
      expect(first).toContain(`${printed.shipments} ${titles.join(" ")}`);
      for (const key of ["shipments", "totalWeight"] as const) {
        expect(first).toContain(CATALOGS.es[key]);
      }
      await checkPdfStructure(pdf.bytes);
    }
    const pdf = await renderDocumentPdf(input(data));
    expect(await decodeQrCode(pdf.bytes)).toBe(ISSUE.qrUrl);
  });

  it("keeps the total weight on the page of the last shipment", async () => {
    // A route whose last row ends its page, the total would go on alone.
    const pdf = await renderDocumentPdf(
      input(groupedDocument(40), {
        locale: "fr",
        rectifies: { uuid: RECTIFIED_VERSION.uuid, data: groupedDocument(38) },
      }),
    );
    const last = squeezeSpaces((await pageTexts(pdf.bytes)).at(-1) ?? "");
    expect(last).toContain("S40 goods 40,5 kg Poids total / Peso total 840 kg");
  });

  it("prints no total when a shipment gives another measure than its weight", async () => {
    const data = groupedDocument(3);
    const [, second, third] = shipmentsIn(data);
    if (!second || !third) throw new Error("three shipments");
    second.goods = {
      ...second.goods,
      weight_kg: null,
      alternative_measure: { value: "24", unit: "palés" },
    };
    const text = squeezeSpaces(
      (await pageTexts((await renderDocumentPdf(input(data))).bytes)).join(" "),
    );
    expect(text).toContain("24 palés");
    expect(text).toContain("3,5 kg");
    expect(text).not.toContain(CATALOGS.es.totalWeight);
  });

  it("prints the time of issue in the time zone of the first shipment's origin", async () => {
    const data = groupedDocument(2);
    const [first] = shipmentsIn(data);
    if (!first) throw new Error("a shipment");
    first.origin = { ...first.origin, postal_code: "35008" };
    const text = squeezeSpaces(
      (await pageTexts((await renderDocumentPdf(input(data))).bytes)).join(" "),
    );
    expect(text).toContain("21/11/2026 12:00 (UTC+00:00, hora canaria)");
  });

  it("of 100 shipments with the longest texts flows onto further pages, each with the header and the table's heading continued, stays under 5 MB and reads in order", {
    timeout: 60_000,
  }, async () => {
    const data = groupedDocument(100, { longest: true });
    const pdf = await renderDocumentPdf(input(data, { locale: "en" }));
    const { printed } = documentWording("en");
    const pages = (await pageTexts(pdf.bytes)).map(squeezeSpaces);

    expect(pdf.bytes.byteLength).toBeLessThan(MAX_PDF_BYTES);
    expect(pages).toHaveLength(pdf.pages);
    expect(pdf.pages).toBeGreaterThan(100);
    // Every page after the table's heading continues it, up to its total:
    // the first row's texts that page 1 cut, under their labels, then the rows.
    const titles = [
      printed.shipmentNumber,
      printed.origin,
      printed.destination,
      printed.description,
      printed.weightOrMeasure,
    ].join(" ");
    const heading = `${printed.shipmentsContinued} ${titles}`;
    const first = pages.findIndex((text) =>
      text.includes(`${printed.shipments} ${titles}`),
    );
    // The band of key facts on page 1 names the total weight too.
    const last = pages.findLastIndex((text) =>
      text.includes(printed.totalWeight),
    );
    expect(first).toBeGreaterThanOrEqual(0);
    expect(last).toBe(pdf.pages - 1);
    const firstRow = `${continuedTitle(documentWording("en"), "shipments")} Shipment 1: `;
    const rows = pages.findIndex((text) => text.includes(heading));
    expect(first).toBe(0);
    expect(rows).toBeGreaterThan(first);
    pages.forEach((text, index) => {
      expect(text.includes(heading), `page ${index + 1}`).toBe(
        index >= rows && index <= last,
      );
      if (index > first && index < rows) expect(text).toContain(firstRow);
    });

    // Without the frames and the repeated heading, the pages read as one
    // text: every shipment's texts whole and in order.
    const content = contentWithoutFrames(pages, "en", { repeated: [heading] });
    const texts = shipmentsIn(data).flatMap((shipment, index) => [
      // The first row's texts read on after their cut (test/pdf/page-one.test.ts).
      ...(index === 0 ? [] : rowTexts(shipment)),
      `${index + 1},5 kg`,
    ]);
    expect(positionsInOrder(content, texts)).not.toContain(-1);
    expect(content).toContain(`${printed.totalWeight} 5.100 kg`);
    await checkPdfStructure(pdf.bytes);
  });
});

describe("a correction of a grouped document", () => {
  const correct = async (
    before: DocumentData,
    after: DocumentData,
    locale: DocumentPdfInput["locale"] = "en",
  ) => {
    const pdf = await renderDocumentPdf(
      input(after, {
        locale,
        rectifies: { uuid: RECTIFIED_VERSION.uuid, data: before },
      }),
    );
    // The box read as one text across the pages it starts and goes on on.
    return contentWithoutFrames(
      (await pageTexts(pdf.bytes)).map(squeezeSpaces),
      locale,
      { repeated: [documentWording(locale).printed.rectificationContinued] },
    );
  };

  it("lists each shipment's changes by its number, and a shipment added, in the document's language and in Spanish", async () => {
    const before = groupedDocument(2);
    const after = groupedDocument(3);
    const [, second] = shipmentsIn(after);
    if (!second) throw new Error("two shipments");
    second.goods = { ...second.goods, weight_kg: "20" };
    const text = await correct(before, after);
    expect(text).toContain(
      "Changes / Cambios • Shipment 2: Weight / Envío 2: Peso: 2,5 kg → 20 kg • Shipment 3: added / Envío 3: añadido",
    );
    expect(text).not.toContain("Change of vehicle");
    expect(await correct(after, before, "es")).toContain(
      "Cambios • Envío 2: Peso: 20 kg → 2,5 kg • Envío 3: suprimido",
    );
  });

  it("says that a single-shipment document became grouped, and back", async () => {
    const grouped = groupedDocument(2);
    expect(await correct(FULL_DOCUMENT, grouped)).toContain(
      "Changes / Cambios • Grouped document: several shipments instead of one / Documento agrupado: varios envíos en lugar de uno • Shipment 1: Origin (place of loading) — Place / Envío 1: Origen (lugar de carga) — Lugar: Almacén Ελλάδα Foods, muelle 3 → S1 dock •",
    );
    expect(await correct(grouped, FULL_DOCUMENT, "es")).toContain(
      "Cambios • Un solo envío en lugar de varios • Envío 1: Origen (lugar de carga) — Lugar: S1 dock → Almacén Ελλάδα Foods, muelle 3 •",
    );
  });
});
