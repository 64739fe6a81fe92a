import { serviceUnavailable } from "../errors";
import type { Keyring } from "./keyring";
import { openPdf, sealPdf } from "./pdf-envelope";
import {
  decodePdfObjectMetadata,
  encodePdfObjectMetadata,
  type PdfObjectMetadata,
  withDeletedAt,
} from "./pdf-object-metadata";

/** A stored PDF with what its object says of its document (null when it says nothing). */
interface StoredPdf {
  bytes: Uint8Array;
  metadata: PdfObjectMetadata | null;
}

/** Issued PDFs in R2, encrypted at rest (format: pdf-envelope.ts). */
export interface PdfStore {
  /** Throws 503 SERVICE_UNAVAILABLE when R2 refuses or cannot be reached. */
  put(
    objectKey: string,
    pdf: Uint8Array,
    metadata: PdfObjectMetadata,
  ): Promise<void>;
  /**
   * Exactly the bytes that were put, or null when there is no such object.
   * Throws 503 SERVICE_UNAVAILABLE when R2 cannot be reached, and throws
   * when the object was tampered with.
   */
  get(objectKey: string): Promise<Uint8Array | null>;
  /** As `get`, with the object's metadata, in the same one read. */
  getWithMetadata(objectKey: string): Promise<StoredPdf | null>;
  /**
   * Writes the deletion time into the object's metadata, the stored bytes
   * unchanged (R2 rewrites metadata only with the object). Nothing when there
   * is no such object. Throws 503 SERVICE_UNAVAILABLE when R2 fails.
   */
  noteDeletion(objectKey: string, deletedAt: number): Promise<void>;
  delete(objectKey: string): Promise<void>;
}

export function createPdfStore(bucket: R2Bucket, keyring: Keyring): PdfStore {
  /** The object's sealed bytes and raw metadata, or null. */
  const read = async (objectKey: string) => {
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
      await write(objectKey, sealed, encodePdfObjectMetadata(metadata));
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
