import { findQrLinkTarget } from "../../db/documents";
import { notFound } from "../../errors";
import type { Environment } from "../../schemas/environment";
import { mayBeDeleted } from "../../storage/pdf-object-metadata";
import { qrKeyVersionOf } from "../../storage/qr-secret";
import type { Services } from "../services";
import { findMoving, toDocument, uuidCreatedAt } from "../shard-routing";
import { isDeletionSettled } from "../windows";
import {
  accessRead,
  isWrittenTooRecently,
  lastWrittenSeen,
  rememberLastWritten,
  writeAccess,
} from "./access-writes";
import { pdfObjectKey } from "./issue-document";

type QrLink = { uuid: string; k: string | undefined; demo: boolean };

/** What decides whether a QR link opens its document, from D1 or from the PDF object. */
interface QrLinkTarget {
  environment: Environment;
  deletedAt: number | null;
  expiresAt: number | null;
}

/**
 * Whether the link may open the document, its secret aside: of the link's
 * family (`/d/` real, `/demo/d/` demo), not deleted, and a demo document
 * only while its session lasts.
 */
const opens = (target: QrLinkTarget, link: QrLink, now: number): boolean =>
  (target.environment === "demo") === link.demo &&
  target.deletedAt === null &&
  (target.expiresAt === null || now < target.expiresAt);

/**
 * The PDF behind a QR link, for anyone holding its secret `k`: no Bearer, no
 * 24-hour limit, unaffected by key revocation. A wrong secret, an unknown or
 * deleted document, or one of the other link family (a demo link also ends
 * with its session) are the same 404. A `GET` records the access, which
 * blocks deletion; a `HEAD` (`record: false`) does not.
 */
export async function downloadByQr(
  services: Services,
  link: QrLink,
  record: boolean,
): Promise<{ uuid: string; bytes: Uint8Array }> {
  // The secret first, by its HMAC alone: a wrong one reaches neither the
  // cache nor storage, so neither its answer nor its time tells whether the
  // document exists. The key version it matches must be the document's.
  const version =
    link.k && (await qrKeyVersionOf(services.qrKeyring, link.uuid, link.k));
  if (!version) throw notFound();
  const createdAt = uuidCreatedAt(link.uuid);
  return createdAt !== null &&
    isDeletionSettled(createdAt, services.clock.now())
    ? downloadSettled(services, link, version, record)
    : downloadFromDatabase(services, link, version, record);
}

/**
 * While the document may still be deleted (and for a uuid that tells no
 * creation time, or an object that does not tell whether it was deleted): D1
 * decides, and the access is recorded as access-writes.ts says (the first
 * one before the PDF is served). `pdf` when the bytes were read already.
 */
async function downloadFromDatabase(
  services: Services,
  link: QrLink,
  version: string,
  record: boolean,
  pdf = services.pdfs.get(pdfObjectKey(link.uuid)),
): Promise<{ uuid: string; bytes: Uint8Array }> {
  // The PDF is fetched while D1 is read (its key is the uuid's), and looked
  // at only once the link is known to open: an unknown or deleted
  // document stays a 404 whatever R2 answers.
  pdf.catch(() => undefined);
  const route = toDocument(link.uuid);
  const row = (
    await findMoving(services, route, (db) => findQrLinkTarget(db, link.uuid))
  )?.found;
  const now = services.clock.now();
  if (!row || row.qrKeyVersion !== version || !opens(row, link, now)) {
    throw notFound();
  }
  const bytes = await pdf;
  if (!bytes) throw new Error(`stored PDF of document ${row.uuid} is missing`);
  if (record) await accessRead(services, row, now, QR, !link.demo);
  return { uuid: row.uuid, bytes };
}

const QR = { via: "qr" } as const;

// How long a data centre keeps a settled real document's PDF: any time is
// right, since nothing can change it any more; a day bounds how long a copy
// of a PDF that is read once or twice at a roadside stays outside R2.
const EDGE_CACHE_MS = 24 * 60 * 60 * 1000;

/**
 * Once the document can no longer be deleted (windows.ts): served from the
 * edge cache, or else one R2 read, its object's metadata deciding; the access
 * recorded after the answer, unless this instance saw one written within the
 * minute (access-writes.ts). An object without that metadata, or whose
 * deletion was asked for and not yet confirmed, is left to D1 (and never
 * kept at the edge).
 */
async function downloadSettled(
  services: Services,
  link: QrLink,
  version: string,
  record: boolean,
): Promise<{ uuid: string; bytes: Uint8Array }> {
  const cached = await services.edgeCache.match(link.uuid);
  const stored =
    cached ?? (await services.pdfs.getWithMetadata(pdfObjectKey(link.uuid)));
  if (!stored) throw notFound();
  const { metadata, bytes } = stored;
  if (!metadata || mayBeDeleted(metadata)) {
    return downloadFromDatabase(
      services,
      link,
      version,
      record,
      Promise.resolve(bytes),
    );
  }
  const now = services.clock.now();
  // On a hit too: a demo document's copy may outlive its session.
  if (metadata.qrKeyVersion !== version || !opens(metadata, link, now)) {
    throw notFound();
  }
  if (!cached) {
    // Only a settled document that opens (not deleted) is kept, and a
    // settled document can no longer be deleted: no copy ever needs to be
    // removed. A demo one is kept until its session ends, no longer.
    services.background(
      "qr_edge_cache",
      services.edgeCache.put(
        link.uuid,
        { bytes, metadata },
        metadata.expiresAt === null ? EDGE_CACHE_MS : metadata.expiresAt - now,
      ),
    );
  }
  if (record && !isWrittenTooRecently(lastWrittenSeen(link.uuid), now)) {
    services.background(
      "qr_access",
      writeAccess(services, link.uuid, now, QR, !link.demo).then((access) => {
        if (access) rememberLastWritten(link.uuid, access.lastQrAccessAt);
      }),
    );
  }
  return { uuid: link.uuid, bytes };
}
