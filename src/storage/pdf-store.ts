import { serviceUnavailable } from "../errors";
import type { Keyring } from "./keyring";
import { openPdf, sealPdf } from "./pdf-envelope";

/** Issued PDFs in R2, encrypted at rest (format: pdf-envelope.ts). */
export interface PdfStore {
  /** Throws 503 SERVICE_UNAVAILABLE when R2 refuses or cannot be reached. */
  put(objectKey: string, pdf: Uint8Array): Promise<void>;
  /**
   * Exactly the bytes that were put, or null when there is no such object.
   * Throws 503 SERVICE_UNAVAILABLE when R2 cannot be reached, and throws
   * when the object was tampered with.
   */
  get(objectKey: string): Promise<Uint8Array | null>;
  delete(objectKey: string): Promise<void>;
}

export function createPdfStore(bucket: R2Bucket, keyring: Keyring): PdfStore {
  return {
    async put(objectKey, pdf) {
      const sealed = await sealPdf(keyring, objectKey, pdf);
      try {
        await bucket.put(objectKey, sealed);
      } catch (error) {
        throw serviceUnavailable("pdf_store", error);
      }
    },
    async get(objectKey) {
      let stored: Uint8Array;
      try {
        const object = await bucket.get(objectKey);
        if (!object) return null;
        stored = new Uint8Array(await object.arrayBuffer());
      } catch (error) {
        throw serviceUnavailable("pdf_store", error);
      }
      return openPdf(keyring, objectKey, stored);
    },
    async delete(objectKey) {
      await bucket.delete(objectKey);
    },
  };
}
