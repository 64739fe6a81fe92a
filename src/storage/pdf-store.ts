import { serviceUnavailable } from "../errors";
import type { Keyring } from "./keyring";
import { openPdf, sealPdf } from "./pdf-envelope";
import {
  decodePdfObjectMetadata,
  encodePdfObjectMetadata,
  type PdfObjectMetadata,
  withDeletedAt,
  withDeletionRequested,
} from "./pdf-object-metadata";

/** A stored PDF with what its object says of its document (null when it says nothing). */
interface StoredPdf {
  bytes: Uint8Array;
  metadata: PdfObjectMetadata | null;
}

/** A PDF object as stored, read to rewrite its metadata: its bytes stay sealed. */
interface StoredPdfObject {
  readonly sealed: Uint8Array;
  readonly customMetadata: Record<string, string> | undefined;
}

/** Issued PDFs in R2, encrypted at rest (format: pdf-envelope.ts). */
export interface PdfStore {
  /** Throws 503 SERVICE_UNAVAILABLE when R2 refuses or cannot be reached. */
  put(
    objectKey: string,
    pdf: Uint8Array,
    metadata: Omit<PdfObjectMetadata, "deletionRequestedAt">,
  ): Promise<void>;
  /**
   * Exactly the bytes that were put, or null when there is no such object.
   * Throws 503 SERVICE_UNAVAILABLE when R2 cannot be reached, and throws
   * when the object was tampered with.
   */
  get(objectKey: string): Promise<Uint8Array | null>;
  /** As `get`, with the object's metadata, in the same one read. */
  getWithMetadata(objectKey: string): Promise<StoredPdf | null>;
  /** The object as stored, or null. Throws 503 SERVICE_UNAVAILABLE when R2 fails. */
  read(objectKey: string): Promise<StoredPdfObject | null>;
  /**
   * Writes into `stored`'s metadata that its document's deletion was asked
   * for at `at`, the bytes unchanged. Throws 503 SERVICE_UNAVAILABLE when R2
   * fails (the write may still have been applied).
   */
  noteDeletionRequested(
    objectKey: string,
    stored: StoredPdfObject,
    at: number,
  ): Promise<void>;
  /**
   * Writes the deletion time into the object's metadata, the stored bytes
   * unchanged (R2 rewrites metadata only with the object). Nothing when there
   * is no such object. Throws 503 SERVICE_UNAVAILABLE when R2 fails.
   */
  noteDeletion(objectKey: string, deletedAt: number): Promise<void>;
  delete(objectKey: string): Promise<void>;
}

export function createPdfStore(bucket: R2Bucket, keyring: Keyring): PdfStore {
  const read = async (objectKey: string): Promise<StoredPdfObject | null> => {
    try {
      const object = await bucket.get(objectKey);
      if (!object) return null;
      return {
        sealed: new Uint8Array(await object.arrayBuffer()),
        customMetadata: object.customMetadata,
      };
    } catch (error) {
      throw serviceUnavailable("pdf_store", error);
    }
  };
  const write = async (
    objectKey: string,
    sealed: Uint8Array,
    customMetadata: Record<string, string>,
  ) => {
    try {
      await bucket.put(objectKey, sealed, { customMetadata });
    } catch (error) {
      throw serviceUnavailable("pdf_store", error);
    }
  };
  return {
    async put(objectKey, pdf, metadata) {
      const sealed = await sealPdf(keyring, objectKey, pdf);
      await write(
        objectKey,
        sealed,
        encodePdfObjectMetadata({ ...metadata, deletionRequestedAt: null }),
      );
    },
    read,
    async noteDeletionRequested(objectKey, stored, at) {
      await write(
        objectKey,
        stored.sealed,
        withDeletionRequested(stored.customMetadata ?? {}, at),
      );
    },
    async get(objectKey) {
      const stored = await read(objectKey);
      return stored && openPdf(keyring, objectKey, stored.sealed);
    },
    async getWithMetadata(objectKey) {
      const stored = await read(objectKey);
      if (!stored) return null;
      return {
        bytes: await openPdf(keyring, objectKey, stored.sealed),
        metadata: decodePdfObjectMetadata(stored.customMetadata),
      };
    },
    async noteDeletion(objectKey, deletedAt) {
      const stored = await read(objectKey);
      if (!stored) return;
      await write(
        objectKey,
        stored.sealed,
        withDeletedAt(stored.customMetadata ?? {}, deletedAt),
      );
    },
    async delete(objectKey) {
      await bucket.delete(objectKey);
    },
  };
}
