import { toIsoTime } from "../../clock";
import type { DocumentRow } from "../../db/schema";
import { documentLocaleSchema } from "../../schemas/document-locale";
import type {
  DocumentResult,
  RealDocumentResult,
} from "../../schemas/document-result";
import type { Services } from "../services";
import { documentBody } from "./document-body";
import { pdfDownloadUrl, qrUrl } from "./links";
import type { SealFacts } from "./render-port";
import { documentWarnings } from "./warnings";

export type { DocumentResult };

export async function documentResult(
  services: Pick<Services, "baseUrl" | "qrKeyring" | "archives">,
  row: DocumentRow,
): Promise<DocumentResult> {
  const { data, metadata } = await documentBody(services, row);
  const url = await qrUrl(services, row);
  const downloadUrl = pdfDownloadUrl(services.baseUrl, row.uuid);
  const result: RealDocumentResult = {
    uuid: row.uuid,
    reference: row.reference,
    created_at: toIsoTime(row.createdAt),
    url,
    pdf: {
      sha256: row.pdfSha256,
      size_bytes: row.pdfSizeBytes,
      pages: row.pdfPages,
      seal: sealResult(row.pdfSeal),
    },
    pdf_download_url: downloadUrl,
    rectifies_uuid: row.rectifiesUuid,
    data,
    metadata,
    // Stored as text; only ever written from a validated locale.
    document_locale: documentLocaleSchema.parse(row.documentLocale),
    ...documentWarnings(data, row.createdAt),
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

/** The result's `pdf.seal` from its row: null for a document issued before PDFs were sealed. */
function sealResult(stored: string | null): RealDocumentResult["pdf"]["seal"] {
  if (stored === null) return null;
  const seal = JSON.parse(stored) as SealFacts;
  return {
    level: seal.level,
    certificate_subject: seal.subject,
    timestamp: seal.timestamp === null ? null : toIsoTime(seal.timestamp),
  };
}
