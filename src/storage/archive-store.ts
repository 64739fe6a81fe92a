import { serviceUnavailable } from "../errors";
import type { ArchivedDocument } from "../schemas/archived-document";
import type { Keyring } from "./keyring";
import { openPdf, sealPdf } from "./pdf-envelope";

/** Archived bodies in R2, encrypted like the PDFs (pdf-envelope.ts). */
export interface ArchiveStore {
  /**
   * Stores the archive of a document unless one is stored already (by a run
   * that died before its D1 update, or runs side by side), and returns the
   * one stored: an archive is written once, so that no run overwrites events
   * another run has already deleted from D1. Throws 503 SERVICE_UNAVAILABLE
   * when R2 refuses or cannot be reached.
   */
  put(archived: ArchivedDocument): Promise<ArchivedDocument>;
  /** The archived body, or null when there is none. */
  get(uuid: string): Promise<ArchivedDocument | null>;
}

export const archiveObjectKey = (uuid: string): string =>
  `archive/${uuid}.json`;

/** An archive from its stored, encrypted bytes; throws when they were altered or moved. */
export async function openArchive(
  keyring: Keyring,
  uuid: string,
  stored: Uint8Array,
): Promise<ArchivedDocument> {
  const json = await openPdf(keyring, archiveObjectKey(uuid), stored);
  return JSON.parse(new TextDecoder().decode(json)) as ArchivedDocument;
}

export function createArchiveStore(
  bucket: R2Bucket,
  keyring: Keyring,
): ArchiveStore {
  async function get(uuid: string): Promise<ArchivedDocument | null> {
    let stored: Uint8Array;
    try {
      const object = await bucket.get(archiveObjectKey(uuid));
      if (!object) return null;
      stored = new Uint8Array(await object.arrayBuffer());
    } catch (error) {
      throw serviceUnavailable("pdf_store", error);
    }
    return openArchive(keyring, uuid, stored);
  }

  async function put(archived: ArchivedDocument): Promise<ArchivedDocument> {
    const key = archiveObjectKey(archived.uuid);
    const json = new TextEncoder().encode(JSON.stringify(archived));
    const sealed = await sealPdf(keyring, key, json);
    let written: R2Object | null;
    try {
      // Only where no object is: R2 answers null when one is there.
      written = await bucket.put(key, sealed, {
        onlyIf: { etagDoesNotMatch: "*" },
      });
    } catch (error) {
      throw serviceUnavailable("pdf_store", error);
    }
    if (written) return archived;
    const stored = await get(archived.uuid);
    if (!stored) throw new Error(`archive of ${archived.uuid} vanished`);
    return stored;
  }

  return { put, get };
}
