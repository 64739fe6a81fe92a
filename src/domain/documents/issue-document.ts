import {
  commitIssuedDocument,
  countDocumentsOfCredential,
} from "../../db/documents";
import {
  deletePendingPdfObject,
  insertPendingPdfObject,
} from "../../db/pending-pdf-objects";
import type { DocumentRow } from "../../db/schema";
import { DomainError } from "../../errors";
import type {
  DocumentData,
  DocumentRequest,
} from "../../schemas/document-request";
import type { Credential } from "../authenticate";
import { demoSessionLockName } from "../locks";
import { sha256Hex } from "../sha256";
import { fallbackFontsFor } from "./fallback-fonts";
import { qrUrl } from "./links";
import { documentTooLarge, MAX_PDF_BYTES } from "./pdf-size";
import { requestHash } from "./request-hash";
import type { DocumentServices } from "./services";

export const pdfObjectKey = (uuid: string): string => `documents/${uuid}.pdf`;

/**
 * Issues a new version (a demo session only up to its document limit, every
 * version counted): renders the PDF (DOCUMENT_TOO_LARGE over 5 MB, before
 * anything is stored), stores it encrypted, then commits the
 * row, its reference reservation and its audit events in one batch. Until
 * that batch commits nothing is visible; if the put or the batch fails the
 * PDF is removed again.
 */
export function issueDocument(
  services: DocumentServices,
  credential: Credential,
  request: DocumentRequest,
  rectifies?: DocumentRow,
): Promise<DocumentRow> {
  if (credential.environment !== "demo") {
    return issueVersion(services, credential, request, rectifies);
  }
  // Under the session's lock, so that parallel requests cannot pass the count together.
  return services.locks.withLock(
    demoSessionLockName(credential.id),
    async () => {
      const issued = await countDocumentsOfCredential(
        services.db,
        credential.id,
      );
      if (issued >= services.demo.documentsPerToken) {
        throw new DomainError("DEMO_DOCUMENT_LIMIT", {
          limit: services.demo.documentsPerToken,
        });
      }
      return issueVersion(services, credential, request, rectifies);
    },
  );
}

async function issueVersion(
  services: DocumentServices,
  credential: Credential,
  request: DocumentRequest,
  rectifies: DocumentRow | undefined,
): Promise<DocumentRow> {
  const { metadata, ...data } = request;
  const uuid = crypto.randomUUID();
  const createdAt = services.clock.now();
  const { documentLocale } = credential;
  const qrKeyVersion = services.qrKeyring.current;
  const environment = credential.environment;
  const pdf = await services.renderPdf({
    data,
    uuid,
    createdAt,
    rectifies: rectifies
      ? {
          uuid: rectifies.uuid,
          data: JSON.parse(rectifies.data) as DocumentData,
        }
      : null,
    qrUrl: await qrUrl(services, { uuid, environment, qrKeyVersion }),
    locale: documentLocale,
    demo: environment === "demo",
    // Before anything is written: a font that cannot be had is a 503.
    fallbackFonts: await fallbackFontsFor(services.fonts, data),
  });
  if (pdf.bytes.byteLength > MAX_PDF_BYTES) throw documentTooLarge();

  const row: DocumentRow = {
    uuid,
    credentialId: credential.id,
    organizationId: credential.organizationId,
    environment,
    reference: data.reference,
    createdAt,
    transportDate: data.transport_date,
    rectifiesUuid: rectifies?.uuid ?? null,
    rectifiedByUuid: null,
    deletedAt: null,
    deleteReason: null,
    firstQrAccessAt: null,
    data: JSON.stringify(data),
    metadata: metadata === null ? null : JSON.stringify(metadata),
    requestHash: await requestHash(request),
    documentLocale,
    qrKeyVersion,
    pdfObjectKey: pdfObjectKey(uuid),
    pdfSha256: await sha256Hex(pdf.bytes),
    pdfSizeBytes: pdf.bytes.byteLength,
    pdfPages: pdf.pages,
    // A demo document lives as long as its session.
    expiresAt: credential.expiresAt,
  };

  const { db } = services;
  // Noted first, so that a Worker dying between the put and the batch leaves
  // an orphan the scheduled sweep finds (sweep-orphan-pdfs.ts).
  await insertPendingPdfObject(db, row.pdfObjectKey, createdAt);
  try {
    // A put that failed late may still have stored the object: removed below too.
    await services.pdfs.put(row.pdfObjectKey, pdf.bytes);
    await commitIssuedDocument(db, row, rectifies?.uuid ?? null, {
      credentialId: credential.id,
      requestId: services.requestId,
    });
  } catch (error) {
    // Best effort: whatever this cannot remove, the sweep removes later.
    await services.pdfs
      .delete(row.pdfObjectKey)
      .then(() => deletePendingPdfObject(db, row.pdfObjectKey))
      .catch(() => undefined);
    throw error;
  }
  return row;
}
