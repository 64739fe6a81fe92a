import { describe, expect, it } from "vitest";
import {
  FULL_DOCUMENT,
  groupedDocument,
  ISSUE,
  MINIMAL_DOCUMENT,
} from "../../fixtures/documents";
import { CATALOGS } from "../../src/pdf/i18n";
import { printedData } from "../../src/pdf/printed-fields";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import type { DocumentData } from "../../src/schemas/document-request";
import { pageTexts, squeezeSpaces } from "./pdf-tools";

/**
 * The values of the table of printed fields that a Spanish PDF lacks, and
 * its text without its labels, its frame, the identity of the version and
 * those values: what it prints of its data outside that table.
 */
async function printedOutsideTheTable(
  data: DocumentData,
): Promise<{ missing: string[]; outside: string }> {
  const pdf = await renderDocumentPdf({
    data,
    ...ISSUE,
    locale: "es",
    environment: "live",
  });
  const printed = printedData(data);
  const values = [
    ...Object.values(printed.fields),
    ...printed.shipments.flatMap((shipment) => Object.values(shipment)),
    printed.totalWeight,
  ].filter((value) => value !== null);
  // The table of shipments prints an address on one line.
  const oneLine = (value: string) => value.replaceAll("\n", ", ");
  const known = [
    ...values,
    ...values.map(oneLine),
    ...Object.values(CATALOGS.es),
    `${CATALOGS.es.documentId}: ${ISSUE.uuid}`,
    `${CATALOGS.es.reference}: ${data.reference ?? "—"}`,
    data.reference ?? "—",
    // The key facts' route: its arrow, a grouped document's count.
    "→",
    ...("shipments" in data
      ? [
          `${CATALOGS.es.route} · ${CATALOGS.es.shipments}: ${data.shipments.length}`,
        ]
      : []),
    "21/11/2026 13:00 (UTC+01:00, hora peninsular)",
    `${CATALOGS.es.seal}: ${ISSUE.seal.name}`,
    ...Array.from(
      { length: pdf.pages },
      (_, index) => `${CATALOGS.es.page} ${index + 1}/${pdf.pages}`,
    ),
  ]
    .map(squeezeSpaces)
    // Longest first, so that no part of a longer text is taken for a shorter one.
    .sort((a, b) => b.length - a.length);
  const text = squeezeSpaces((await pageTexts(pdf.bytes)).join(" "));
  const missing = values.filter(
    (value) =>
      !text.includes(squeezeSpaces(value)) &&
      !text.includes(squeezeSpaces(oneLine(value))),
  );
  const outside = squeezeSpaces(
    known.reduce((rest, part) => rest.split(part).join(" "), text),
  );
  return { missing, outside };
}

describe("the table of printed fields", () => {
  // A field printed outside the table would be left out of the change list.
  it("holds everything a document prints of its data but the reference, and prints all it holds", async () => {
    const empty = { missing: [], outside: "" };
    expect(await printedOutsideTheTable(FULL_DOCUMENT)).toEqual(empty);
    expect(await printedOutsideTheTable(MINIMAL_DOCUMENT)).toEqual(empty);
    // The shipments' numbers, which the table of shipments adds.
    expect(await printedOutsideTheTable(groupedDocument(12))).toEqual({
      missing: [],
      outside: "1 2 3 4 5 6 7 8 9 10 11 12",
    });
  });
});
