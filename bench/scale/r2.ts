// R2 over one year: operations by class, storage at the year's end and the
// monthly bill then, at the list prices of scale-facts.md.
import { R2_PRICES, type Volume, YEAR } from "./assumptions";
import { type IssuedKind, KINDS, type Kind } from "./documents";
import type { Footprint } from "./footprint";

const GB = 1e9;

export function r2Year(
  issued: Record<Kind, IssuedKind>,
  footprints: Record<Kind, Footprint>,
  { documents }: Volume,
) {
  // The create's put and the archiver's; a deletion's PDF object is read
  // and rewritten twice: "maybe deleted" by the request, "deleted" by the
  // cron (delete-document.ts, finish-deletion.ts).
  const deletionRewrites = 2 * documents * YEAR.deletionShare;
  const classA = {
    pdfPuts: documents,
    archivePuts: documents,
    deletionMarkPuts: deletionRewrites,
  };
  const classB = {
    qrScanGets: documents * YEAR.qrScansPerDocument,
    deletionMarkGets: deletionRewrites,
    downloadGets: documents * YEAR.downloadsPerDocument,
  };
  const mean = (bytes: (kind: Kind) => number) =>
    KINDS.reduce((sum, kind) => sum + YEAR.kindMix[kind] * bytes(kind), 0);
  const storageBytes = {
    pdfs: documents * mean((kind) => issued[kind].storedPdfBytes),
    archives: documents * mean((kind) => footprints[kind].storedArchiveBytes),
  };
  const total = (counts: Record<string, number>) =>
    Object.values(counts).reduce((sum, count) => sum + count, 0);
  const storageGb = (storageBytes.pdfs + storageBytes.archives) / GB;
  const monthly = {
    storage: storageGb * R2_PRICES.storagePerGbMonth,
    classA: ((total(classA) / 12) * R2_PRICES.classAPerMillion) / 1e6,
    classB: ((total(classB) / 12) * R2_PRICES.classBPerMillion) / 1e6,
  };
  return {
    classAOperationsAYear: { ...classA, total: total(classA) },
    classBOperationsAYear: { ...classB, total: total(classB) },
    storageBytesAtOneYear: { ...storageBytes, total: storageGb * GB },
    monthlyCostUsdAtOneYear: {
      ...monthly,
      total: monthly.storage + monthly.classA + monthly.classB,
    },
  };
}
