import { insertAuditEvent } from "../../db/audit";
import { isUniqueViolation } from "../../db/errors";
import type { DocumentRow } from "../../db/schema";
import { DomainError, notFound } from "../../errors";
import type { DocumentRequest } from "../../schemas/document-request";
import type { Credential } from "../authenticate";
import { referenceLockName } from "../locks";
import { documentShard } from "../shard-routing";
import { isWithinReadWindow } from "../windows";
import { reservedDocument } from "./addressing";
import { issueDocument } from "./issue-document";
import { requestHash } from "./request-hash";
import { type DocumentResult, documentResult } from "./result";
import type { DocumentServices } from "./services";

export interface CreateOutcome {
  /** True for a new document (201), false for an identical retry (200). */
  created: boolean;
  result: DocumentResult;
}

export const referenceConflict = (): DomainError =>
  new DomainError("REFERENCE_CONFLICT", { field: "reference" });

/**
 * The answer to a create whose reference is already reserved: the original
 * result for an identical request of the same credential within 24 hours,
 * otherwise a refusal that discloses nothing of the other document.
 */
async function retry(
  services: DocumentServices,
  credential: Credential,
  request: DocumentRequest,
  original: DocumentRow,
): Promise<CreateOutcome> {
  if (
    original.credentialId !== credential.id ||
    original.requestHash !== (await requestHash(request))
  ) {
    throw referenceConflict();
  }
  if (original.deletedAt !== null) throw notFound();
  const now = services.clock.now();
  if (!isWithinReadWindow(original.createdAt, now)) {
    throw new DomainError("DOCUMENT_WINDOW_EXPIRED", { field: "reference" });
  }
  await insertAuditEvent(documentShard(services.shards, original.uuid), {
    documentUuid: original.uuid,
    type: "retried",
    credentialId: credential.id,
    requestId: services.requestId,
    occurredAt: now,
  });
  return { created: false, result: await documentResult(services, original) };
}

/**
 * Creates a document (spec 3, first two rows). Requests with the same
 * reference are serialized by its lock, so that exactly one issues and the
 * others see it; the reservation's unique key stays as the last guard.
 */
export async function createDocument(
  services: DocumentServices,
  credential: Credential,
  request: DocumentRequest,
): Promise<CreateOutcome> {
  const issue = async (): Promise<CreateOutcome> => ({
    created: true,
    result: await documentResult(
      services,
      await issueDocument(services, credential, request),
    ),
  });
  const reference = request.reference;
  if (reference === null) return issue();

  const reserved = () => reservedDocument(services, credential, reference);
  return services.locks.withLock(
    referenceLockName(credential, reference),
    async () => {
      const original = await reserved();
      if (original) return retry(services, credential, request, original);
      try {
        return await issue();
      } catch (error) {
        const winner = isUniqueViolation(error) ? await reserved() : undefined;
        if (!winner) throw error;
        return retry(services, credential, request, winner);
      }
    },
  );
}
