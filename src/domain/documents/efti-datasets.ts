// A document as eFTI data for its owner (docs/api.md, eFTI data): the
// datasets of its consignments, one per shipment, and each consignment as
// the common data set's XML (docs/efti.md). Under the rules of the
// document's own read: the caller's, within its read window, not deleted.
// Each export is in the document's audit trail (efti_exported).
import { recordEftiRead } from "../../db/efti-reads";
import { notFound } from "../../errors";
import type { EftiDatasetList } from "../../schemas/efti-dataset";
import type { Credential } from "../authenticate";
import { consignmentWithId, datasetsOf } from "../efti/consignment";
import { consignmentXml } from "../efti/subsets";
import type { Services } from "../services";
import { type DocumentAddress, writeDocument } from "./addressing";
import { documentData } from "./document-body";
import { readableDocument } from "./read-document";

/** Where the owning credential downloads one consignment's XML with its Bearer key. */
const consignmentUrl = (baseUrl: string, uuid: string, datasetId: string) =>
  `${baseUrl}/api/v1/documents/${uuid}/efti/${datasetId}`;

/**
 * Records an export of the document (`datasetId` null: the list) in its
 * audit trail: an event, not a state change, so the answer does not wait
 * for it.
 */
function auditExport(
  services: Services,
  credential: Credential,
  uuid: string,
  datasetId: string | null,
): void {
  const read = {
    documentUuid: uuid,
    type: "efti_exported" as const,
    datasetId,
    gate: null,
    credentialId: credential.id,
    requestId: services.requestId,
    occurredAt: services.clock.now(),
  };
  services.background(
    "efti_exported_event",
    writeDocument(services, uuid, (db) => recordEftiRead(db, read)),
  );
}

/** The document's datasets, in the order of its shipments: number, dataset id, XML's URL. */
export async function listEftiDatasets(
  services: Services,
  credential: Credential,
  address: DocumentAddress,
): Promise<EftiDatasetList> {
  const row = await readableDocument(services, credential, address);
  const datasets = await datasetsOf({
    uuid: row.uuid,
    data: await documentData(services, row),
  });
  auditExport(services, credential, row.uuid, null);
  return {
    data: datasets.map(({ shipmentNumber, datasetId }) => ({
      shipment: shipmentNumber,
      dataset_id: datasetId,
      url: consignmentUrl(services.baseUrl, row.uuid, datasetId),
    })),
  };
}

/**
 * The consignment `datasetId` of the document as the common data set's XML
 * (the full export: every datum that has an element). A dataset id that is
 * not one of the document's is the same 404 as an unreadable document.
 */
export async function eftiConsignmentXml(
  services: Services,
  credential: Credential,
  address: DocumentAddress,
  datasetId: string,
): Promise<string> {
  const row = await readableDocument(services, credential, address);
  const consignment = await consignmentWithId(
    { ...row, data: await documentData(services, row) },
    datasetId,
  );
  if (!consignment) throw notFound();
  auditExport(services, credential, row.uuid, datasetId);
  return consignmentXml(consignment.root);
}
