import { PDFDocument } from "@cantoo/pdf-lib";
import { describe, expect, it } from "vitest";
import {
  groupedDocument,
  ISSUE,
  RECTIFIED_VERSION,
} from "../../fixtures/documents";
import { rectificationBox } from "../../src/pdf/correction-box";
import { STREAM_DRAWING } from "../../src/pdf/drawing";
import { documentWording } from "../../src/pdf/i18n";
import { type Block, paginate } from "../../src/pdf/page-flow";
import { printedDocument } from "../../src/pdf/printed-document";
import { textStyles } from "../../src/pdf/styles";
import type { DocumentData } from "../../src/schemas/document-request";
import { pageTexts, squeezeSpaces } from "./pdf-tools";

const SHIPMENTS = 20;

/** A route of 20 shipments, each weighing 10 kg more, three added, the tractor changed. */
function correctedRoute(): DocumentData {
  const route = groupedDocument(SHIPMENTS + 3);
  if (!("shipments" in route)) throw new Error("a grouped document");
  return {
    ...route,
    vehicle: { ...route.vehicle, registration: "9999JKL" },
    shipments: route.shipments.map((shipment, index) => ({
      ...shipment,
      goods: { ...shipment.goods, weight_kg: `${index + 11}.5` },
    })),
  };
}

/** What each item prints: `Shipment 4: Weight / Envío 4: Peso: 4,5 kg → 14,5 kg`. */
const expectedItems = [
  "Vehicle registration / Matrícula del vehículo: 1234BCD (ES) → 9999JKL (ES)",
  ...Array.from(
    { length: SHIPMENTS },
    (_, index) =>
      `Shipment ${index + 1}: Weight / Envío ${index + 1}: Peso: ${index + 1},5 kg → ${index + 11},5 kg`,
  ),
  ...[21, 22, 23].map((n) => `Shipment ${n}: added / Envío ${n}: añadido`),
];

const CONTINUED = "Rectification (continued) / Rectificación (continuación)";

/**
 * The correction box of the route, laid out in a column `room` points tall
 * page after page, as the page flow splits it, and each page's text.
 */
async function boxOnPages(
  room: number,
): Promise<{ box: Block; pages: Block[][]; texts: string[] }> {
  const pdf = await PDFDocument.create();
  const styles = textStyles(await STREAM_DRAWING.embedFonts(pdf, new Map()));
  const wording = documentWording("en");
  const { rectifies } = printedDocument(
    {
      ...ISSUE,
      data: correctedRoute(),
      rectifies: { ...RECTIFIED_VERSION, data: groupedDocument(SHIPMENTS) },
    },
    wording.printed,
  );
  if (!rectifies) throw new Error("a correction");
  const box = rectificationBox(rectifies, wording, styles, 320);
  const placed = paginate([box], { top: 800, bottom: 800 - room });
  for (const blocks of placed) {
    const canvas = STREAM_DRAWING.canvas(pdf.addPage([595.28, 841.89]));
    for (const { block, top } of blocks) block.draw(canvas, top);
    canvas.finish();
  }
  const texts = await pageTexts(await pdf.save());
  return {
    box,
    pages: placed.map((blocks) => blocks.map(({ block }) => block)),
    texts,
  };
}

describe("the correction box of many changes", () => {
  it("lists one change an item, the change of vehicle first, each on lines of its own", async () => {
    const { texts } = await boxOnPages(2000);
    expect(texts).toHaveLength(1);
    const text = squeezeSpaces(texts[0] ?? "");
    expect(text).toContain(
      `Rectifies document / Rectifica el documento PED-2026-0042 (${RECTIFIED_VERSION.uuid}) Change of vehicle (Order FOM/2861/2012, art. 6 g) / Cambio de vehículo (Orden FOM/2861/2012, art. 6 g) Changes / Cambios`,
    );
    expect(text).toContain(
      squeezeSpaces(expectedItems.map((item) => `• ${item}`).join(" ")),
    );
    // A list, not a paragraph: every item starts a line with its bullet.
    const bullets = (texts[0] ?? "")
      .split("\n")
      .filter((line) => line.startsWith("•"));
    expect(bullets).toHaveLength(expectedItems.length);
  });

  it("splits between items, each part within its room, each continuation labelled", async () => {
    const room = 150;
    const { box, pages, texts } = await boxOnPages(room);
    expect(pages.length).toBeGreaterThan(2);
    for (const blocks of pages) {
      expect(blocks).toHaveLength(1);
      expect(blocks[0]?.height).toBeLessThanOrEqual(room);
    }
    const squeezed = texts.map(squeezeSpaces);
    expect(squeezed[0]).toMatch(/^Rectifies document/);
    expect(squeezed[0]).not.toContain(CONTINUED);
    for (const text of squeezed.slice(1)) {
      expect(text.startsWith(`${CONTINUED} •`)).toBe(true);
    }
    // Every item whole on one page, in order, none lost or repeated.
    const found = expectedItems.map((item) =>
      squeezed.findIndex((text) => text.includes(`• ${item}`)),
    );
    expect(found).not.toContain(-1);
    expect(found).toEqual([...found].sort((a, b) => a - b));
    expect(squeezed.join(" ").split("•")).toHaveLength(
      expectedItems.length + 1,
    );
    // The headings never go without an item, nor does a split leave nothing.
    expect(box.split?.(40)).toBeNull();
  });
});
