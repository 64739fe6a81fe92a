import { insertAuditEvent } from "../../db/audit";
import type { DocumentRow } from "../../db/schema";
import {
  DomainError,
  domainErrorBehind,
  notFound,
  ValidationError,
} from "../../errors";
import type { DocumentRequest } from "../../schemas/document-request";
import type { Credential } from "../authenticate";
import type { Services } from "../services";
import { documentShard } from "../shard-routing";
import { isWithinReadWindow } from "../windows";
import {
  type DocumentAddress,
  findDocument,
  findOwnDocument,
} from "./addressing";
import {
  forgetPdfNote,
  type IssuePlan,
  issueDocument,
  pdfObjectKey,
  planIssue,
} from "./issue-document";
import { requestHash } from "./request-hash";
import { type DocumentResult, documentResult } from "./result";

/**
 * A correction asked of a version that already has one: the same body within
 * 24 hours of that correction is a retry and gets it back; anything else is
 * refused.
 */
async function existingCorrection(
  services: Services,
  credential: Credential,
  request: DocumentRequest,
  correctionUuid: string,
): Promise<DocumentResult> {
  const correction = await findDocument(services, correctionUuid);
  if (!correction || correction.requestHash !== (await requestHash(request))) {
    throw new DomainError("DOCUMENT_ALREADY_RECTIFIED");
  }
  if (correction.deletedAt !== null) throw notFound();
  const now = services.clock.now();
  if (!isWithinReadWindow(correction.createdAt, now)) {
    throw new DomainError("DOCUMENT_WINDOW_EXPIRED");
  }
  services.background(
    "retried_event",
    insertAuditEvent(documentShard(services.shards, correction.uuid), {
      documentUuid: correction.uuid,
      type: "retried",
      credentialId: credential.id,
      requestId: services.requestId,
      occurredAt: now,
    }),
  );
  return documentResult(services, correction);
}

/**
 * Corrects a document by issuing a new version (docs/api.md, Corrections): the original stays
 * active with its QR link. No lock: the commit itself checks that the
 * original is neither deleted nor rectified, and when it is refused the
 * original, read again, says why. By uuid, the read of the original also
 * notes the PDF the correction would put (one round trip fewer); the note
 * goes again when nothing is issued.
 */
export async function rectifyDocument(
  services: Services,
  credential: Credential,
  address: DocumentAddress,
  request: DocumentRequest,
): Promise<DocumentResult> {
  if (!("uuid" in address)) {
    const target = await findOwnDocument(services, credential, address);
    return correct(services, credential, request, target, { plan: undefined });
  }
  const plan = planIssue(services, credential, request.reference, address);
  const pendingPdf = {
    objectKey: pdfObjectKey(plan.uuid),
    createdAt: plan.createdAt,
  };
  const handover = { plan, taken: false };
  try {
    const target = await findOwnDocument(
      services,
      credential,
      address,
      pendingPdf,
    );
    return await correct(services, credential, request, target, handover);
  } finally {
    if (!handover.taken) {
      services.background(
        "pending_pdf_note",
        forgetPdfNote(services, plan.uuid, pendingPdf.objectKey),
      );
    }
  }
}

/**
 * The correction of `target`: refused, an existing correction answered
 * again, or a new version issued (with `handover.plan` when its PDF's note
 * is written, which issuing then owns: `taken`).
 */
async function correct(
  services: Services,
  credential: Credential,
  request: DocumentRequest,
  target: DocumentRow | undefined,
  handover: { plan: IssuePlan | undefined; taken?: boolean },
): Promise<DocumentResult> {
  if (!target || target.deletedAt !== null) throw notFound();
  if (request.reference !== null && request.reference === target.reference) {
    throw new ValidationError([
      {
        field: "reference",
        code: "INVALID_VALUE",
        message:
          "A correction needs its own reference: it must differ from the reference of the document it corrects.",
      },
    ]);
  }
  if (target.rectifiedByUuid !== null) {
    return existingCorrection(
      services,
      credential,
      request,
      target.rectifiedByUuid,
    );
  }
  handover.taken = true;
  try {
    return await documentResult(
      services,
      await issueDocument(services, credential, request, target, handover.plan),
    );
  } catch (error) {
    if (domainErrorBehind(error)?.code !== "DOCUMENT_ALREADY_RECTIFIED") {
      throw error;
    }
    return refusedCorrection(services, credential, request, target.uuid);
  }
}

/** A correction whose commit was refused: its original was deleted or rectified meanwhile. */
async function refusedCorrection(
  services: Services,
  credential: Credential,
  request: DocumentRequest,
  originalUuid: string,
): Promise<DocumentResult> {
  const original = await findDocument(services, originalUuid);
  if (!original || original.deletedAt !== null) throw notFound();
  if (original.rectifiedByUuid === null) {
    throw new DomainError("DOCUMENT_ALREADY_RECTIFIED");
  }
  return existingCorrection(
    services,
    credential,
    request,
    original.rectifiedByUuid,
  );
}
