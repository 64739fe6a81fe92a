import type { DocumentSummaryRow } from "../../db/document-summaries";
import type { DocumentRow } from "../../db/schema";

/** What a credential's list keeps of a document. */
export const summaryOf = (row: DocumentRow): DocumentSummaryRow => ({
  uuid: row.uuid,
  credentialId: row.credentialId,
  reference: row.reference,
  createdAt: row.createdAt,
  transportDate: row.transportDate,
  rectifiesUuid: row.rectifiesUuid,
});
