// A document as eFTI data for its owner (docs/api.md, eFTI data): the
// datasets of its consignments, one per shipment, and each consignment as
// the common data set's XML (docs/efti.md). Under the rules of the
// document's own read: the caller's, within its read window, not deleted.
import { notFound } from "../../errors";
import type { EftiDatasetList } from "../../schemas/efti-dataset";
import type { Credential } from "../authenticate";
import { consignmentWithId, datasetsOf } from "../efti/consignment";
import { consignmentXml } from "../efti/subsets";
import type { Services } from "../services";
import type { DocumentAddress } from "./addressing";
import { documentData } from "./document-body";
import { readableDocument } from "./read-document";

/** Where the owning credential downloads one consignment's XML with its Bearer key. */
const consignmentUrl = (baseUrl: string, uuid: string, datasetId: string) =>
  `${baseUrl}/api/v1/documents/${uuid}/efti/${datasetId}`;

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
  return consignmentXml(consignment.root);
}
