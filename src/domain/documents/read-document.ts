import { insertAuditEvent } from "../../db/audit";
import type { DocumentRow } from "../../db/schema";
import { notFound } from "../../errors";
import type { Credential } from "../authenticate";
import type { Services } from "../services";
import { documentShard } from "../shard-routing";
import { isWithinReadWindow } from "../windows";
import { type DocumentAddress, findOwnDocument } from "./addressing";
import { pdfObjectKey } from "./issue-document";
import { qrUrl } from "./links";
import { type DocumentResult, documentResult } from "./result";

/**
 * The caller's document within its 24-hour read window. Absent, foreign,
 * older and (unless `includeDeleted`) deleted documents are the same 404.
 */
export async function readableDocument(
  services: Services,
  credential: Credential,
  address: DocumentAddress,
  includeDeleted = false,
): Promise<DocumentRow> {
  const row = await findOwnDocument(services, credential, address);
  if (
    !row ||
    (row.deletedAt !== null && !includeDeleted) ||
    !isWithinReadWindow(row.createdAt, services.clock.now())
  ) {
    throw notFound();
  }
  return row;
}

export async function getDocument(
  services: Services,
  credential: Credential,
  address: DocumentAddress,
): Promise<DocumentResult> {
  return documentResult(
    services,
    await readableDocument(services, credential, address),
  );
}

/** `active` or `deleted`, during the read window only (docs/api.md, Reading and status). */
export async function getDocumentStatus(
  services: Services,
  credential: Credential,
  address: DocumentAddress,
): Promise<{ status: "active" | "deleted" }> {
  const row = await readableDocument(services, credential, address, true);
  return { status: row.deletedAt === null ? "active" : "deleted" };
}

/**
 * The document's QR link (`url`, secret `k` included), to show as an image,
 * under the same rules as the PDF download. Showing the code records
 * nothing: it is neither a download nor an access to the link.
 */
export async function getDocumentQrLink(
  services: Services,
  credential: Credential,
  address: DocumentAddress,
): Promise<{ uuid: string; url: string }> {
  const row = await readableDocument(services, credential, address);
  return { uuid: row.uuid, url: await qrUrl(services, row) };
}

/**
 * Exactly the stored PDF bytes, for the owning credential within 24 hours.
 * A download is recorded in the audit trail (`recordDownload`), not a
 * `HEAD`, which only shows what a download would get.
 */
export async function downloadDocumentPdf(
  services: Services,
  credential: Credential,
  address: DocumentAddress,
  { recordDownload }: { recordDownload: boolean },
): Promise<{ uuid: string; bytes: Uint8Array }> {
  const row = await readableDocument(services, credential, address);
  const bytes = await services.pdfs.get(pdfObjectKey(row.uuid));
  if (!bytes) throw new Error(`stored PDF of document ${row.uuid} is missing`);
  if (!recordDownload) return { uuid: row.uuid, bytes };
  // An event, not a state change: the answer does not wait for it.
  services.background(
    "pdf_downloaded_event",
    insertAuditEvent(documentShard(services.shards, row.uuid), {
      documentUuid: row.uuid,
      type: "pdf_downloaded",
      credentialId: credential.id,
      requestId: services.requestId,
      occurredAt: services.clock.now(),
    }),
  );
  return { uuid: row.uuid, bytes };
}
