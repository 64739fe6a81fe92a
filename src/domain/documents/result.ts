import { toIsoTime } from "../../clock";
import type { DocumentRow } from "../../db/schema";
import type { DocumentData, Metadata } from "../../schemas/document-request";
import { pdfDownloadUrl, qrUrl } from "./links";
import type { DocumentServices } from "./services";

/** The Document result (spec 2.10), variant 1; demo documents add variant 2's fields. */
export interface DocumentResult {
  uuid: string;
  reference: string | null;
  created_at: string;
  url: string;
  pdf: { sha256: string; size_bytes: number; pages: number };
  pdf_download_url: string;
  rectifies_uuid: string | null;
  data: DocumentData;
  metadata: Metadata;
  document_locale: string;
  demo?: true;
  expires_at?: string;
  qr_url?: string;
  pdf_url?: string;
}

export async function documentResult(
  services: Pick<DocumentServices, "baseUrl" | "qrKeyring">,
  row: DocumentRow,
): Promise<DocumentResult> {
  const url = await qrUrl(services, row);
  const downloadUrl = pdfDownloadUrl(services.baseUrl, row.uuid);
  const result: DocumentResult = {
    uuid: row.uuid,
    reference: row.reference,
    created_at: toIsoTime(row.createdAt),
    url,
    pdf: {
      sha256: row.pdfSha256,
      size_bytes: row.pdfSizeBytes,
      pages: row.pdfPages,
    },
    pdf_download_url: downloadUrl,
    rectifies_uuid: row.rectifiesUuid,
    data: JSON.parse(row.data) as DocumentData,
    metadata:
      row.metadata === null ? null : (JSON.parse(row.metadata) as Metadata),
    document_locale: row.documentLocale,
  };
  if (row.environment !== "demo" || row.expiresAt === null) return result;
  return {
    ...result,
    demo: true,
    expires_at: toIsoTime(row.expiresAt),
    qr_url: url,
    pdf_url: downloadUrl,
  };
}
