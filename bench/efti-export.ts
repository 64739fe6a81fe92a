// The eFTI export of one stored document (src/domain/efti/): its
// consignments built and written as the common data set's XML, and their
// identifier documents. Pure CPU: no I/O, one SHA-256 a consignment for its
// dataset id. Goal: at most 1 ms of CPU for a single-shipment document.
import { FULL_DOCUMENT, groupedDocument, ISSUE } from "../fixtures/documents";
import {
  consignmentsOf,
  type ExportedDocument,
} from "../src/domain/efti/consignment";
import { consignmentXml, identifierXml } from "../src/domain/efti/subsets";
import { measure, summarizeRuns } from "./stats";

const exportOf = async (document: ExportedDocument) =>
  (await consignmentsOf(document)).map((consignment) => [
    consignmentXml(consignment.root),
    identifierXml(consignment.root),
  ]);

/** The export's times: the full single-shipment document, and a route of 100 shipments. */
export async function eftiExportFigures({
  warmup,
  runs,
}: {
  warmup: number;
  runs: number;
}) {
  const issued = {
    uuid: ISSUE.uuid,
    createdAt: ISSUE.createdAt,
    rectifiesUuid: null,
    rectifiedByUuid: null,
  };
  const single = { ...issued, data: FULL_DOCUMENT };
  const grouped = {
    ...issued,
    data: groupedDocument(100),
  };
  return {
    single: summarizeRuns(
      await measure(() => exportOf(single), { warmup, runs }),
    ),
    grouped100: summarizeRuns(
      await measure(() => exportOf(grouped), { warmup, runs }),
    ),
  };
}
