import { ENVIRONMENTS, type Environment } from "../db/schema";

/**
 * What a PDF object in R2 says of its document, in its custom metadata: all a
 * QR link needs to decide without D1 once the document can no longer be
 * deleted (qr-download.ts). Nothing secret: the QR `k` is derived from the key
 * version, never stored.
 */
export interface PdfObjectMetadata {
  environment: Environment;
  createdAt: number;
  /** A demo document's end (its session's); null for any other. */
  expiresAt: number | null;
  qrKeyVersion: string;
  /** Set once the deletion committed in D1 (delete-document.ts). */
  deletedAt: number | null;
}

/** The metadata as R2 keeps it: strings by name. */
export function encodePdfObjectMetadata(
  metadata: PdfObjectMetadata,
): Record<string, string> {
  return {
    environment: metadata.environment,
    created_at: String(metadata.createdAt),
    qr_key_version: metadata.qrKeyVersion,
    ...(metadata.expiresAt === null
      ? {}
      : { expires_at: String(metadata.expiresAt) }),
    ...(metadata.deletedAt === null
      ? {}
      : { deleted_at: String(metadata.deletedAt) }),
  };
}

/** `stored` with the time its document was deleted. */
export const withDeletedAt = (
  stored: Record<string, string>,
  deletedAt: number,
): Record<string, string> => ({ ...stored, deleted_at: String(deletedAt) });

const time = (value: string | undefined): number | null | undefined => {
  if (value === undefined) return null;
  return /^\d{1,16}$/.test(value) ? Number(value) : undefined;
};

/**
 * The metadata of a stored object, or null when it lacks any of it (an
 * object put before the metadata was written, or altered): the caller then
 * asks D1.
 */
export function decodePdfObjectMetadata(
  stored: Record<string, string> | undefined,
): PdfObjectMetadata | null {
  if (!stored) return null;
  const environment = ENVIRONMENTS.find((name) => name === stored.environment);
  const createdAt = time(stored.created_at);
  const expiresAt = time(stored.expires_at);
  const deletedAt = time(stored.deleted_at);
  const qrKeyVersion = stored.qr_key_version;
  if (
    !environment ||
    createdAt === null ||
    createdAt === undefined ||
    expiresAt === undefined ||
    deletedAt === undefined ||
    !qrKeyVersion
  ) {
    return null;
  }
  return { environment, createdAt, expiresAt, qrKeyVersion, deletedAt };
}
