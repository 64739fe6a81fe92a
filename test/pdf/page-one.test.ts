import { describe, expect, it } from "vitest";
import {
  FULL_DOCUMENT,
  groupedDocument,
  ISSUE,
  LONGEST_DOCUMENT,
  RECTIFIED_VERSION,
} from "../../fixtures/documents";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import { cutOnPageOne } from "./continuations";
import { pageContents } from "./page-frames";
import { decodeQrCode, pageTexts, squeezeSpaces } from "./pdf-tools";
import { renderInput } from "./render-input";

const input = renderInput;

const pagesOf = async (pdf: { bytes: Uint8Array }) =>
  (await pageTexts(pdf.bytes)).map(squeezeSpaces);

/** The start of a long text, which page 1 prints before cutting it. */
const start = (text: string | null | undefined): string =>
  squeezeSpaces(text ?? "").slice(0, 28);

const { shipper, carrier, special_authorization } = LONGEST_DOCUMENT;

/**
 * What an inspector checks (docs/pdf.md, Page 1) that every document
 * prints the same way, single or grouped, the long texts by their start.
 */
const COMMON_ITEMS = [
  ISSUE.uuid,
  "21/11/2026 13:00 (UTC+01:00, hora peninsular)",
  "23/11/2026",
  start(shipper.name),
  "7251801126 (PL)",
  start(carrier.name),
  "RO18547290 (RO)",
  "Vehículo 1234BCD (ES)",
  "Remolque R1234BCD (ES)",
  start(special_authorization?.number),
  start(special_authorization?.issuer),
];

describe("page 1, with every free text at its longest", () => {
  it("holds what an inspector checks, the QR code included, each long text cut with the page it goes on", async () => {
    const pdf = await renderDocumentPdf(input(LONGEST_DOCUMENT));
    const pages = await pagesOf(pdf);
    const [first = ""] = pages;

    expect(pdf.pages).toBeGreaterThan(2);
    for (const item of [
      ...COMMON_ITEMS,
      start(LONGEST_DOCUMENT.reference),
      start(LONGEST_DOCUMENT.origin.place),
      start(LONGEST_DOCUMENT.destination.place),
      start(LONGEST_DOCUMENT.goods.description),
      "Peso 12.345,679 kg",
    ]) {
      expect(first).toContain(item);
    }
    expect(await decodeQrCode(pdf.bytes)).toBe(ISSUE.qrUrl);

    // Each cut text goes on, whole, on the page it names, under its label.
    const contents = pageContents(pages, "es", {
      reference: LONGEST_DOCUMENT.reference,
    });
    for (const [text, heading] of [
      [
        shipper.name,
        "Cargador contractual (continuación) Nombre o razón social",
      ],
      [
        carrier.name,
        "Transportista efectivo (continuación) Nombre o razón social",
      ],
      [
        LONGEST_DOCUMENT.origin.place,
        "Origen (lugar de carga) (continuación) Lugar",
      ],
      [
        LONGEST_DOCUMENT.goods.description,
        "Mercancía (continuación) Naturaleza de la mercancía",
      ],
    ] as const) {
      expect(cutOnPageOne(contents, text ?? "", heading, "es"), heading).toBe(
        true,
      );
    }
  });

  it("starts page 2 with a continuation label, and each later page with the frame and the QR code that reads back at 150 dpi", async () => {
    const pdf = await renderDocumentPdf(
      input(LONGEST_DOCUMENT, { locale: "en", environment: "demo" }),
    );
    const contents = pageContents(await pagesOf(pdf), "en", {
      environment: "demo",
      reference: LONGEST_DOCUMENT.reference,
    });

    expect(contents[1]).toMatch(
      /^Observations \(continued\) \/ Observaciones \(continuación\) /,
    );
    for (let page = 1; page <= pdf.pages; page++) {
      expect(await decodeQrCode(pdf.bytes, page), `page ${page}`).toBe(
        ISSUE.qrUrl,
      );
    }
  });

  it("cuts no text of a document that page 1 holds whole", async () => {
    const description = Array.from(
      { length: 8 },
      (_, index) => `${index + 1}. Aceite de oliva virgen extra, 24 palés`,
    ).join(" ");
    const data = {
      ...FULL_DOCUMENT,
      goods: { ...FULL_DOCUMENT.goods, description },
    };
    const pdf = await renderDocumentPdf(input(data));
    const [first = ""] = await pagesOf(pdf);
    expect(pdf.pages).toBe(1);
    expect(first).toContain(description);
    expect(first).not.toContain("continúa en la página");
  });

  it("holds what an inspector checks on a correction, and the start of its box: the version it rectifies, the change of vehicle; the changes go on on page 2", async () => {
    const pdf = await renderDocumentPdf(
      input(LONGEST_DOCUMENT, { rectifies: RECTIFIED_VERSION }),
    );
    const pages = await pagesOf(pdf);
    const [first = ""] = pages;
    for (const item of [
      ...COMMON_ITEMS,
      start(LONGEST_DOCUMENT.origin.place),
      start(LONGEST_DOCUMENT.goods.description),
      "Peso 12.345,679 kg",
    ]) {
      expect(first).toContain(item);
    }
    // After all of it, in the room left, which holds no more.
    expect(first).toContain(
      `Rectifica el documento PED-2026-0041 (${RECTIFIED_VERSION.uuid}) Cambio de vehículo (Orden FOM/2861/2012, art. 6 g)`,
    );
    expect(
      first.endsWith("Cambio de vehículo (Orden FOM/2861/2012, art. 6 g)"),
    ).toBe(true);
    const contents = pageContents(pages, "es", {
      reference: LONGEST_DOCUMENT.reference,
    });
    expect(contents[1]).toMatch(
      /^Rectificación \(continuación\) Cambios • Matrícula del vehículo: 5678FGH \(ES\) → 1234BCD \(ES\) • /,
    );
  });

  it("holds what an inspector checks on a grouped document: the number of shipments, the first origin, the last destination, the total weight, the first shipment's row, its texts cut", async () => {
    const data = {
      ...groupedDocument(100, { longest: true }),
      shipper: LONGEST_DOCUMENT.shipper,
      carrier: LONGEST_DOCUMENT.carrier,
      special_authorization: LONGEST_DOCUMENT.special_authorization,
      observations: LONGEST_DOCUMENT.observations,
    };
    const pdf = await renderDocumentPdf(input(data));
    const pages = await pagesOf(pdf);
    const [first = ""] = pages;
    for (const item of [
      ...COMMON_ITEMS,
      "Trayecto · Envíos: 100",
      "S1 dock 0.",
      "S100 shop 0.",
      "Peso total 5.100 kg",
      // The first shipment's row, its quantity whole.
      "Peso o cantidad 1 S1 dock 0.",
      "1,5 kg",
    ]) {
      expect(first).toContain(item);
    }
    expect(await decodeQrCode(pdf.bytes)).toBe(ISSUE.qrUrl);

    // Its texts cut there, going on on the page each names, under its label.
    const contents = pageContents(pages, "es", { reference: data.reference });
    const [shipment] = "shipments" in data ? data.shipments : [];
    for (const [text, label] of [
      [shipment?.origin.place, "Origen (lugar de carga) — Lugar"],
      [shipment?.destination.place, "Destino (lugar de descarga) — Lugar"],
      [shipment?.goods.description, "Naturaleza de la mercancía"],
    ] as const) {
      const heading = `Envíos (continuación) Envío 1: ${label}`;
      expect(cutOnPageOne(contents, text ?? "", heading, "es"), heading).toBe(
        true,
      );
    }
  }, 60_000);
});
