import { deleteSummary, markDeleted } from "../../db/documents";
import type { DocumentRow } from "../../db/schema";
import { DomainError, notFound } from "../../errors";
import type { DeleteRequest } from "../../schemas/delete-request";
import type { Credential } from "../authenticate";
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
import { settleDeletion } from "./finish-deletion";
import type { DocumentServices } from "./services";

/**
 * Why a document may not be deleted now, in the order of spec 3's table:
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
 * (and, while a rebalance moves it, in its former one).
 */
const unlist = async (
  services: DocumentServices,
  credential: Credential,
  uuid: string,
): Promise<void> => {
  for (const shard of shardsHolding(services, (shards) =>
    homeShard(shards, credential),
  )) {
    await deleteSummary(shard, uuid);
  }
};

/**
 * Deletes a document logically (spec 3): its PDF, data, audit trail and
 * reference reservation stay. Checks: the body (422, before this), then
 * existence (404), then the 409s. A repeated deletion within the window
 * answers as the first did, with the deletion time unchanged.
 */
export async function deleteDocument(
  services: DocumentServices,
  credential: Credential,
  address: DocumentAddress,
  request: DeleteRequest,
): Promise<void> {
  await withOwnDocumentLocked(
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
      const { shard, done: deleted } = await writeMoving(
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
      settleDeletion(services, shard, document.uuid, now);
      await unlist(services, credential, document.uuid);
    },
  );
}
