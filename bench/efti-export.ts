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

const issued = {
  uuid: ISSUE.uuid,
  createdAt: ISSUE.createdAt,
  rectifiesUuid: null,
  rectifiedByUuid: null,
};

/** The exports measured: the full single-shipment document, and a route of 100 shipments. */
export const EFTI_EXPORTS = {
  single: () => exportOf({ ...issued, data: FULL_DOCUMENT }),
  grouped100: () => exportOf({ ...issued, data: groupedDocument(100) }),
};

/** The export's times: the full single-shipment document, and a route of 100 shipments. */
export async function eftiExportFigures({
  warmup,
  runs,
}: {
  warmup: number;
  runs: number;
}) {
  return {
    single: summarizeRuns(await measure(EFTI_EXPORTS.single, { warmup, runs })),
    grouped100: summarizeRuns(
      await measure(EFTI_EXPORTS.grouped100, { warmup, runs }),
    ),
  };
}
