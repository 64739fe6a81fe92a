import type { DocumentRow } from "../../db/schema";
import { deriveQrSecret } from "../../storage/qr-secret";
import type { Services } from "../services";

/** The QR link of a document: a bearer secret, never logged. */
export async function qrUrl(
  services: Pick<Services, "baseUrl" | "qrKeyring">,
  document: Pick<DocumentRow, "uuid" | "environment" | "qrKeyVersion">,
): Promise<string> {
  const k = await deriveQrSecret(
    services.qrKeyring,
    document.qrKeyVersion,
    document.uuid,
  );
  const path = document.environment === "demo" ? "/demo/d/" : "/d/";
  return `${services.baseUrl}${path}${document.uuid}?k=${k}`;
}

/** Where the owning credential downloads the PDF with its Bearer key. */
export const pdfDownloadUrl = (baseUrl: string, uuid: string): string =>
  `${baseUrl}/api/v1/documents/${uuid}/pdf`;
