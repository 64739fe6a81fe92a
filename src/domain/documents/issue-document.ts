import {
  commitIssuedDocument,
  countDemoDocuments,
  deleteReservation,
  insertReservation,
  insertSummary,
  reservationFor,
} from "../../db/documents";
import {
  deletePendingPdfObject,
  insertPendingPdfObject,
} from "../../db/pending-pdf-objects";
import type { DocumentRow } from "../../db/schema";
import { DomainError } from "../../errors";
import type { DocumentPdf, DocumentPdfInput } from "../../pdf/render-document";
import type { DocumentRequest } from "../../schemas/document-request";
import type { Credential } from "../authenticate";
import { demoSessionLockName } from "../locks";
import { sha256Hex } from "../sha256";
import {
  documentShard,
  homeShard,
  newDocumentUuid,
  randomBucket,
  referenceBucket,
  reservationShard,
  uuidBucket,
} from "../shard-routing";
import { documentData } from "./document-body";
import { fallbackFontsFor } from "./fallback-fonts";
import { qrUrl } from "./links";
import { documentTooLarge, MAX_PDF_BYTES } from "./pdf-size";
import { requestHash } from "./request-hash";
import type { DocumentServices } from "./services";
import { summaryOf } from "./summary";

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
  plan?: IssuePlan,
): Promise<DocumentRow> {
  if (credential.environment !== "demo") {
    return issueVersion(services, credential, request, rectifies, plan);
  }
  // Under the session's lock, so that parallel requests cannot pass the count together.
  return services.locks.withLock(
    demoSessionLockName(credential.id),
    async () => {
      // Every demo document lives in its session's home shard (shard-routing.ts).
      const issued = await countDemoDocuments(
        homeShard(services.shards, credential),
        credential.id,
      );
      if (issued >= services.demo.documentsPerToken) {
        throw new DomainError("DEMO_DOCUMENT_LIMIT", {
          limit: services.demo.documentsPerToken,
        });
      }
      return issueVersion(services, credential, request, rectifies, plan);
    },
  );
}

/**
 * The bucket of a new version: a correction's is its original's (one batch
 * commits both); a create's with a reference is its reservation's; any other
 * spreads evenly.
 */
function bucketOf(
  credential: Credential,
  reference: string | null,
  rectifies: DocumentRow | undefined,
): number {
  if (rectifies) return uuidBucket(rectifies.uuid);
  if (reference !== null) return referenceBucket(credential, reference);
  return randomBucket(credential.environment);
}

/**
 * The uuid and creation time of a version about to be issued. Given to
 * issueDocument, it says that the note of its PDF is already written.
 */
export interface IssuePlan {
  uuid: string;
  createdAt: number;
}

export function planIssue(
  services: Pick<DocumentServices, "clock">,
  credential: Credential,
  reference: string | null,
  rectifies?: DocumentRow,
): IssuePlan {
  const createdAt = services.clock.now();
  const bucket = bucketOf(credential, reference, rectifies);
  return { uuid: newDocumentUuid(bucket, createdAt), createdAt };
}

/**
 * The PDF of a version (DOCUMENT_TOO_LARGE over 5 MB), with the fallback
 * fonts its text needs: a font that cannot be had is a 503.
 */
async function renderVersion(
  services: DocumentServices,
  input: Omit<DocumentPdfInput, "fallbackFonts">,
): Promise<DocumentPdf> {
  const pdf = await services.renderPdf({
    ...input,
    fallbackFonts: await fallbackFontsFor(services.fonts, input.data),
  });
  if (pdf.bytes.byteLength > MAX_PDF_BYTES) throw documentTooLarge();
  return pdf;
}

/** What a version's row records beside its request and its issuer. */
export interface VersionFacts {
  uuid: string;
  createdAt: number;
  rectifiesUuid: string | null;
  qrKeyVersion: string;
  requestHash: string;
  pdf: { sha256: string; sizeBytes: number; pages: number };
}

/** The row of a version as its batch commits it. */
export function versionRow(
  credential: Credential,
  request: DocumentRequest,
  facts: VersionFacts,
): DocumentRow {
  const { metadata, ...data } = request;
  return {
    uuid: facts.uuid,
    credentialId: credential.id,
    organizationId: credential.organizationId,
    environment: credential.environment,
    reference: data.reference,
    createdAt: facts.createdAt,
    transportDate: data.transport_date,
    rectifiesUuid: facts.rectifiesUuid,
    rectifiedByUuid: null,
    deletedAt: null,
    deleteReason: null,
    firstQrAccessAt: null,
    data: JSON.stringify(data),
    metadata: metadata === null ? null : JSON.stringify(metadata),
    requestHash: facts.requestHash,
    documentLocale: credential.documentLocale,
    qrKeyVersion: facts.qrKeyVersion,
    pdfSha256: facts.pdf.sha256,
    pdfSizeBytes: facts.pdf.sizeBytes,
    pdfPages: facts.pdf.pages,
    // A demo document lives as long as its session.
    expiresAt: credential.expiresAt,
    archivedAt: null,
  };
}

async function issueVersion(
  services: DocumentServices,
  credential: Credential,
  request: DocumentRequest,
  rectifies: DocumentRow | undefined,
  plan: IssuePlan | undefined,
): Promise<DocumentRow> {
  const { metadata: _, ...data } = request;
  const { uuid, createdAt } =
    plan ?? planIssue(services, credential, data.reference, rectifies);
  const { documentLocale } = credential;
  const qrKeyVersion = services.qrKeyring.current;
  const environment = credential.environment;
  const db = documentShard(services.shards, uuid);
  const objectKey = pdfObjectKey(uuid);
  const pdf = await renderVersion(services, {
    data,
    uuid,
    createdAt,
    rectifies: rectifies
      ? { uuid: rectifies.uuid, data: await documentData(services, rectifies) }
      : null,
    qrUrl: await qrUrl(services, { uuid, environment, qrKeyVersion }),
    locale: documentLocale,
    demo: environment === "demo",
  }).catch(async (error: unknown) => {
    // A plan's note was written before rendering: nothing will be put.
    if (plan)
      await deletePendingPdfObject(db, objectKey).catch(() => undefined);
    throw error;
  });

  const row = versionRow(credential, request, {
    uuid,
    createdAt,
    rectifiesUuid: rectifies?.uuid ?? null,
    qrKeyVersion,
    requestHash: await requestHash(request),
    pdf: {
      sha256: await sha256Hex(pdf.bytes),
      sizeBytes: pdf.bytes.byteLength,
      pages: pdf.pages,
    },
  });

  // A correction's new reference lives in its own shard, apart from the
  // batch: reserved first, freed again if the commit fails (a Worker dying
  // in between leaves a reservation without document, addressing.ts).
  const apart = rectifies ? reservationFor(row) : null;
  const apartShard =
    apart && reservationShard(services.shards, credential, apart.reference);
  if (apart && apartShard) await insertReservation(apartShard, apart);
  // Noted first (unless the plan's read noted it), so that a Worker dying
  // between the put and the batch leaves an orphan the sweep finds
  // (sweep-orphan-pdfs.ts).
  if (!plan) await insertPendingPdfObject(db, objectKey, createdAt);
  try {
    // A put that failed late may still have stored the object: removed below too.
    await services.pdfs.put(objectKey, pdf.bytes, {
      environment,
      createdAt,
      expiresAt: row.expiresAt,
      qrKeyVersion,
      deletedAt: null,
    });
    await commitIssuedDocument(db, row, {
      reserved: !apart,
      rectifiesUuid: rectifies?.uuid ?? null,
      by: { credentialId: credential.id, requestId: services.requestId },
    });
  } catch (error) {
    // Best effort: whatever this cannot remove, the sweep removes later.
    await services.pdfs
      .delete(objectKey)
      .then(() => deletePendingPdfObject(db, objectKey))
      .catch(() => undefined);
    if (apart && apartShard) {
      await deleteReservation(apartShard, apart).catch(() => undefined);
    }
    throw error;
  }
  // Listed in the credential's home shard. The document is issued whatever
  // happens here: a failure is logged and the note stays, so that the sweep
  // lists it (as it does when the Worker dies before this).
  const listing = insertSummary(
    homeShard(services.shards, credential),
    summaryOf(row),
  );
  services.background(
    "document_listing",
    listing.then(() => deletePendingPdfObject(db, objectKey)),
  );
  await listing.catch(() => undefined);
  return row;
}
