import { markDeleted } from "../../db/document-commits";
import { deleteSummaries, insertSummary } from "../../db/document-summaries";
import { findOwnDocumentForDeletion } from "../../db/documents";
import type { DocumentRow } from "../../db/schema";
import { DomainError, notFound } from "../../errors";
import type { DeleteRequest } from "../../schemas/delete-request";
import type { Credential } from "../authenticate";
import { announceEvents } from "../events/announce";
import type { Services } from "../services";
import {
  findMoving,
  homeShard,
  shardsHolding,
  toDocument,
} from "../shard-routing";
import { deleteWindowStart, isWithinDeleteWindow } from "../windows";
import {
  type DocumentAddress,
  findDocument,
  findOwnDocument,
  writeDocument,
} from "./addressing";
import { datasetIdsOfStored, registeredDocuments } from "./efti-registration";
import { pdfObjectKey } from "./issue-document";
import { summaryOf } from "./summary";

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

/** Takes a document off the credential's list in its home shard (and, while a rebalance moves it, its former one). */
const unlist = (services: Services, credential: Credential, uuid: string) =>
  Promise.all(
    shardsHolding(services, (shards) => homeShard(shards, credential)).map(
      (shard) => deleteSummaries(shard, [uuid]),
    ),
  );

/**
 * Puts a document a deletion took off its list back, in its home shard now
 * (a new row), best effort: the cron does it otherwise.
 */
const relist = (
  services: Services,
  credential: Credential,
  document: DocumentRow,
): Promise<unknown> =>
  insertSummary(
    homeShard(services.shards, credential),
    summaryOf(document),
  ).catch(() => undefined);

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
 * answers as the first did, with the deletion time unchanged. No lock: the
 * commit's conditions decide a race.
 *
 * The read of the document writes, in the same batch, a pending deletion
 * mark when it may be deleted: from then on the cron settles the deletion
 * whatever this request does (finish-deletion.ts). Then, at once, its PDF
 * object is rewritten to say it may be deleted (so that a QR link past the
 * deletion window never trusts an object that says "not deleted" of a
 * deleted document, qr-download.ts) and its list entry is removed (so that
 * a list after the answer never shows it); then the conditional commit. A
 * deletion refused or failed there puts the list entry back, or leaves it
 * to the cron.
 */
export async function deleteDocument(
  services: Services,
  credential: Credential,
  address: DocumentAddress,
  request: DeleteRequest,
): Promise<void> {
  const uuid =
    "uuid" in address
      ? address.uuid
      : (await findOwnDocument(services, credential, address))?.uuid;
  if (uuid === undefined) throw notFound();
  const stored = readPdfObject(services, uuid);
  const now = services.clock.now();
  const document = (
    await findMoving(services, toDocument(uuid), (db) =>
      findOwnDocumentForDeletion(db, credential.id, uuid, {
        at: now,
        createdSince: deleteWindowStart(now),
      }),
    )
  )?.found;
  if (!document) throw notFound();
  const inWindow = isWithinDeleteWindow(document.createdAt, now);
  if (document.deletedAt !== null) {
    if (!inWindow) throw notFound();
    // Finishes what a first deletion may have left undone.
    await unlist(services, credential, uuid);
    return;
  }
  if (!inWindow) {
    throw new DomainError("DELETE_WINDOW_EXPIRED");
  }
  const refused = refusal(document, request);
  if (refused) throw refused;
  // Before anything is changed: the registrations its commit writes.
  const datasetIds = await datasetIdsOfStored(services, document);

  const object = await stored;
  const [noted, unlisted] = await Promise.allSettled([
    object
      ? services.pdfs.noteDeletionRequested(pdfObjectKey(uuid), object, now)
      : Promise.resolve(),
    unlist(services, credential, uuid),
  ]);
  const failed = [noted, unlisted].find((step) => step.status === "rejected");
  if (failed) {
    // Nothing is deleted; the object may say "maybe deleted" all the same,
    // which only sends its QR link to D1.
    await relist(services, credential, document);
    throw failed.reason;
  }
  const deleted = await writeDocument(services, uuid, (db) =>
    markDeleted(
      db,
      uuid,
      {
        at: now,
        reason: request.reason,
        credentialId: credential.id,
        requestId: services.requestId,
      },
      datasetIds,
    ),
  );
  if (deleted) {
    announceEvents(
      services,
      [uuid],
      registeredDocuments(services, document.environment, [uuid]),
    );
    return;
  }
  // A QR access, a correction or another deletion landed between the read
  // and the commit.
  const current = await findDocument(services, uuid);
  if (current?.deletedAt != null) return;
  if (current) await relist(services, credential, current);
  throw (current && refusal(current, request)) ?? notFound();
}
