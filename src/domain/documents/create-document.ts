import { insertAuditEvent } from "../../db/audit";
import { deletePendingPdfObject } from "../../db/pending-pdf-objects";
import type { DocumentRow } from "../../db/schema";
import { DomainError, domainErrorBehind, notFound } from "../../errors";
import type { DocumentRequest } from "../../schemas/document-request";
import type { Credential } from "../authenticate";
import type { Services } from "../services";
import { documentShard, reservationShard } from "../shard-routing";
import { isWithinReadWindow } from "../windows";
import { findReserved, freeIfAbandoned } from "./addressing";
import {
  type IssuePlan,
  issueDocument,
  pdfObjectKey,
  planIssue,
} from "./issue-document";
import { referenceConflict } from "./reference-conflict";
import { requestHash } from "./request-hash";
import { type DocumentResult, documentResult } from "./result";

export interface CreateOutcome {
  /** True for a new document (201), false for an identical retry (200). */
  created: boolean;
  result: DocumentResult;
}

/**
 * The answer to a create whose reference is already reserved: the original
 * result for an identical request of the same credential within 24 hours,
 * otherwise a refusal that discloses nothing of the other document.
 */
async function retry(
  services: Services,
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
  // An event, not a state change: the answer does not wait for it.
  services.background(
    "retried_event",
    insertAuditEvent(documentShard(services.shards, original.uuid), {
      documentUuid: original.uuid,
      type: "retried",
      credentialId: credential.id,
      requestId: services.requestId,
      occurredAt: now,
    }),
  );
  return { created: false, result: await documentResult(services, original) };
}

const issued = async (
  services: Services,
  row: Promise<DocumentRow>,
): Promise<CreateOutcome> => ({
  created: true,
  result: await documentResult(services, await row),
});

/**
 * Creates a document (docs/api.md, Idempotency and retries). A reservation is forever, so
 * one read answers a retry; that read also notes the PDF a new document
 * would put, in its reservation's shard. Concurrent creates of one reference
 * may each render, but the reservation's unique key lets exactly one commit;
 * the others answer as retries of the winner. A reference reserved by a
 * correction still being issued is a conflict until that correction commits
 * (then it holds it) or is provably abandoned (then it is freed).
 */
export async function createDocument(
  services: Services,
  credential: Credential,
  request: DocumentRequest,
): Promise<CreateOutcome> {
  const reference = request.reference;
  if (reference === null) {
    return issued(services, issueDocument(services, credential, request));
  }
  const plan = planIssue(services, credential, reference);
  const objectKey = pdfObjectKey(plan.uuid);
  const found = await findReserved(services, credential, reference, {
    objectKey,
    createdAt: plan.createdAt,
  });
  if (!found) return issueOnce(services, credential, request, plan);
  services.background(
    "pending_pdf_note",
    deletePendingPdfObject(
      reservationShard(services.shards, credential, reference),
      objectKey,
    ),
  );
  if (found.document) {
    return retry(services, credential, request, found.document);
  }
  if (!(await freeIfAbandoned(services, credential, found))) {
    throw referenceConflict();
  }
  return issueOnce(services, credential, request);
}

/** Issues (with the planned uuid, if any); losing the reservation's race is a retry of the winner. */
async function issueOnce(
  services: Services,
  credential: Credential,
  request: DocumentRequest,
  plan?: IssuePlan,
): Promise<CreateOutcome> {
  try {
    return await issued(
      services,
      issueDocument(services, credential, request, undefined, plan),
    );
  } catch (error) {
    const reference = request.reference;
    if (domainErrorBehind(error)?.code !== "REFERENCE_CONFLICT" || !reference) {
      throw error;
    }
    const winner = (await findReserved(services, credential, reference))
      ?.document;
    if (!winner) throw error;
    return retry(services, credential, request, winner);
  }
}
