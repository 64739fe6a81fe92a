import { deleteSummaries, markDeleted } from "../../db/documents";
import type { DocumentRow } from "../../db/schema";
import { DomainError, notFound } from "../../errors";
import type { DeleteRequest } from "../../schemas/delete-request";
import type { Credential } from "../authenticate";
import type { Services } from "../services";
import {
  homeShard,
  shardsHolding,
  toDocument,
  writeMoving,
} from "../shard-routing";
import { isWithinDeleteWindow } from "../windows";
import {
  type DocumentAddress,
  findDocument,
  withOwnDocumentLocked,
} from "./addressing";
import { pdfObjectKey } from "./issue-document";

/**
 * Why a document may not be deleted now, in the order of docs/api.md, Deletion:
 * the window, the caller's two confirmations, then the document's own state.
 */
function refusal(
  document: DocumentRow,
  request: DeleteRequest,
): DomainError | null {
  if (!request.confirm_not_delivered) {
    return new DomainError("DOCUMENT_ALREADY_DELIVERED");
  }
  if (!request.confirm_not_used)
    return new DomainError("DOCUMENT_ALREADY_USED");
  if (document.rectifiedByUuid !== null) {
    return new DomainError("DOCUMENT_ALREADY_RECTIFIED");
  }
  if (document.firstQrAccessAt !== null) {
    return new DomainError("DOCUMENT_ALREADY_ACCESSED");
  }
  return null;
}

/**
 * Takes a deleted document off its credential's list, in the list's shard
 * (and, while a rebalance moves it, in its former one), while the
 * document's lock is released: the answer waits for both at once.
 */
function unlist(
  services: Services,
  credential: Credential,
  uuid: string,
): { done: Promise<void> } {
  const done = Promise.all(
    shardsHolding(services, (shards) => homeShard(shards, credential)).map(
      (shard) => deleteSummaries(shard, [uuid]),
    ),
  ).then(() => undefined);
  done.catch(() => undefined);
  return { done };
}

/** The document's PDF object as stored; a failure is the caller's once it awaits it. */
function readPdfObject(services: Services, uuid: string) {
  const stored = services.pdfs.read(pdfObjectKey(uuid));
  stored.catch(() => undefined);
  return stored;
}

/**
 * Deletes a document logically (docs/api.md, Deletion): its PDF, data, audit trail and
 * reference reservation stay. Checks: the body (422, before this), then
 * existence (404), then the 409s. A repeated deletion within the window
 * answers as the first did, with the deletion time unchanged.
 *
 * Before the deletion commits, its PDF object says it may be deleted, so that
 * a QR link past the deletion window never trusts an object that says "not
 * deleted" of a deleted document (qr-download.ts): a write lost after it was
 * applied, a Worker dying, a cron behind only leave D1 to decide. The cron
 * then writes "deleted" into the object and repairs the list (finish-deletion.ts).
 */
export async function deleteDocument(
  services: Services,
  credential: Credential,
  address: DocumentAddress,
  request: DeleteRequest,
): Promise<void> {
  // By uuid the object is read while the lock is taken and D1 read.
  const early =
    "uuid" in address ? readPdfObject(services, address.uuid) : undefined;
  const unlisting = await withOwnDocumentLocked(
    services,
    credential,
    address,
    async (document) => {
      if (!document) throw notFound();
      const now = services.clock.now();
      const inWindow = isWithinDeleteWindow(document.createdAt, now);
      if (document.deletedAt !== null) {
        if (!inWindow) throw notFound();
        // Finishes what a first deletion may have left undone.
        return unlist(services, credential, document.uuid);
      }
      if (!inWindow) {
        throw new DomainError("DELETE_WINDOW_EXPIRED");
      }
      const refused = refusal(document, request);
      if (refused) throw refused;
      const stored = await (early ?? readPdfObject(services, document.uuid));
      // A failure here leaves nothing deleted; the object may say "maybe
      // deleted" all the same, which only sends its QR link to D1.
      if (stored) {
        await services.pdfs.noteDeletionRequested(
          pdfObjectKey(document.uuid),
          stored,
          now,
        );
      }
      const { done: deleted } = await writeMoving(
        services,
        toDocument(document.uuid),
        (db) =>
          markDeleted(db, document.uuid, {
            at: now,
            reason: request.reason,
            credentialId: credential.id,
            requestId: services.requestId,
          }),
      );
      // A QR access may have landed between the read and the write.
      if (!deleted) {
        const current = await findDocument(services, document.uuid);
        throw (current && refusal(current, request)) ?? notFound();
      }
      return unlist(services, credential, document.uuid);
    },
  );
  await unlisting.done;
}
