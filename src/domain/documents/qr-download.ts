import { findQrLinkTarget, recordQrAccess } from "../../db/documents";
import type { Environment } from "../../db/schema";
import { notFound } from "../../errors";
import { verifyQrSecret } from "../../storage/qr-secret";
import { documentShard } from "../shard-routing";
import { pdfObjectKey } from "./issue-document";
import type { DocumentServices } from "./services";

/**
 * The PDF behind a QR link, for anyone holding its secret `k`: no Bearer, no
 * 24-hour limit, unaffected by key revocation. A wrong secret, an unknown or
 * deleted document, or one of the other link family (`/d/` real, `/demo/d/`
 * demo; a demo link also ends with its session) are the same 404. A `GET`
 * records the access, which blocks deletion; a `HEAD` (`record: false`) does
 * not.
 */
export async function downloadByQr(
  services: DocumentServices,
  link: { uuid: string; k: string | undefined; demo: boolean },
  record: boolean,
): Promise<{ uuid: string; bytes: Uint8Array }> {
  const shard = documentShard(services.shards, link.uuid);
  const row = await findQrLinkTarget(shard, link.uuid);
  const environmentMatches = (environment: Environment) =>
    (environment === "demo") === link.demo;
  const now = services.clock.now();
  if (
    !row ||
    !link.k ||
    !environmentMatches(row.environment) ||
    row.deletedAt !== null ||
    (row.expiresAt !== null && now >= row.expiresAt) ||
    !(await verifyQrSecret(
      services.qrKeyring,
      row.qrKeyVersion,
      row.uuid,
      link.k,
    ))
  ) {
    throw notFound();
  }
  const bytes = await services.pdfs.get(pdfObjectKey(row.uuid));
  if (!bytes) throw new Error(`stored PDF of document ${row.uuid} is missing`);
  if (!record) return { uuid: row.uuid, bytes };

  const accessed = await recordQrAccess(shard, row.uuid, {
    at: now,
    requestId: services.requestId,
  });
  // Deleted between the read and the write: the deletion won.
  if (!accessed) throw notFound();
  return { uuid: row.uuid, bytes };
}
