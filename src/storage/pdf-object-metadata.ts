import { ENVIRONMENTS, type Environment } from "../schemas/environment";

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
  /**
   * Set by a deletion before it commits in D1 (delete-document.ts): the
   * document may be deleted, only D1 can tell.
   */
  deletionRequestedAt: number | null;
  /** Set once the deletion committed in D1 (finish-deletion.ts). */
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
    ...(metadata.deletionRequestedAt === null
      ? {}
      : { deletion_requested_at: String(metadata.deletionRequestedAt) }),
    ...(metadata.deletedAt === null
      ? {}
      : { deleted_at: String(metadata.deletedAt) }),
  };
}

/** `stored` saying that its document's deletion was asked for at `at`; the first time stays. */
export const withDeletionRequested = (
  stored: Record<string, string>,
  at: number,
): Record<string, string> => ({
  deletion_requested_at: String(at),
  ...stored,
});

/** `stored` with the time its document was deleted. */
export const withDeletedAt = (
  stored: Record<string, string>,
  deletedAt: number,
): Record<string, string> => ({ ...stored, deleted_at: String(deletedAt) });

/**
 * Whether the object says its document may have been deleted without saying
 * it was: a deletion was asked for and its outcome is in D1 alone.
 */
export const mayBeDeleted = (metadata: PdfObjectMetadata): boolean =>
  metadata.deletedAt === null && metadata.deletionRequestedAt !== null;

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
  const deletionRequestedAt = time(stored.deletion_requested_at);
  const deletedAt = time(stored.deleted_at);
  const qrKeyVersion = stored.qr_key_version;
  if (
    !environment ||
    createdAt === null ||
    createdAt === undefined ||
    expiresAt === undefined ||
    deletionRequestedAt === undefined ||
    deletedAt === undefined ||
    !qrKeyVersion
  ) {
    return null;
  }
  return {
    environment,
    createdAt,
    expiresAt,
    qrKeyVersion,
    deletionRequestedAt,
    deletedAt,
  };
}
