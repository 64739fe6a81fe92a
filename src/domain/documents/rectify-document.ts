import { insertAuditEvent } from "../../db/audit";
import type { DocumentRow } from "../../db/schema";
import { DomainError, notFound, ValidationError } from "../../errors";
import type { DocumentRequest } from "../../schemas/document-request";
import type { Credential } from "../authenticate";
import { referenceLockName } from "../locks";
import { documentShard } from "../shard-routing";
import { isWithinReadWindow } from "../windows";
import {
  type DocumentAddress,
  findDocument,
  reservedDocument,
  withOwnDocumentLocked,
} from "./addressing";
import { referenceConflict } from "./create-document";
import { issueDocument } from "./issue-document";
import { requestHash } from "./request-hash";
import { type DocumentResult, documentResult } from "./result";
import type { DocumentServices } from "./services";

/**
 * A correction asked of a version that already has one: the same body within
 * 24 hours of that correction is a retry and gets it back; anything else is
 * refused.
 */
async function existingCorrection(
  services: DocumentServices,
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

/** Issues the correction of the latest version, under its new reference's lock if it has one. */
function issueCorrection(
  services: DocumentServices,
  credential: Credential,
  request: DocumentRequest,
  target: DocumentRow,
): Promise<DocumentResult> {
  const issue = async () =>
    documentResult(
      services,
      await issueDocument(services, credential, request, target),
    );
  const reference = request.reference;
  if (reference === null) return issue();
  return services.locks.withLock(
    referenceLockName(credential, reference),
    async () => {
      if (await reservedDocument(services, credential, reference)) {
        throw referenceConflict();
      }
      return issue();
    },
  );
}

/**
 * Corrects a document by issuing a new version (spec 3): the original stays
 * active with its QR link. Corrections of one document are serialized by its
 * lock, under which it is read; the unique index on `rectifies_uuid` stays
 * as the last guard.
 */
export async function rectifyDocument(
  services: DocumentServices,
  credential: Credential,
  address: DocumentAddress,
  request: DocumentRequest,
): Promise<DocumentResult> {
  return withOwnDocumentLocked(
    services,
    credential,
    address,
    async (target) => {
      if (!target || target.deletedAt !== null) throw notFound();
      if (
        request.reference !== null &&
        request.reference === target.reference
      ) {
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
      return issueCorrection(services, credential, request, target);
    },
  );
}
