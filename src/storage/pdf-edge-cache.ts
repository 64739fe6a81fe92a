import { logFailure } from "../failure-log";
import {
  decodePdfObjectMetadata,
  encodePdfObjectMetadata,
  type PdfObjectMetadata,
} from "./pdf-object-metadata";

/** A PDF as the edge cache keeps it: its bytes and its object's metadata. */
interface CachedPdf {
  bytes: Uint8Array;
  metadata: PdfObjectMetadata;
}

/**
 * Settled documents' PDFs in the Workers cache of the data centre that
 * serves the QR link (qr-download.ts decides what goes in and when it may be
 * read). A failing cache is a miss: the link is then served from R2.
 */
export interface PdfEdgeCache {
  /** The PDF kept for `uuid`, or null: not kept, expired, or the cache failing (logged). */
  match(uuid: string): Promise<CachedPdf | null>;
  /** Keeps `pdf` for `uuid` during `lifetimeMs` at most. */
  put(uuid: string, pdf: CachedPdf, lifetimeMs: number): Promise<void>;
}

// The cache is keyed by URL. This host is none of the service's, and the key
// holds the uuid alone: never `k`, which is checked before every read.
const keyOf = (uuid: string): Request =>
  new Request(`https://qr-cache.internal/d/${uuid}`);

// The object's metadata travels in the cached answer's headers, so that a
// hit decides family, demo end and key version as R2's metadata would.
const METADATA_HEADER = "x-pdf-metadata-";

const metadataHeaders = (metadata: PdfObjectMetadata): [string, string][] =>
  Object.entries(encodePdfObjectMetadata(metadata)).map(([name, value]) => [
    `${METADATA_HEADER}${name}`,
    value,
  ]);

const metadataOf = (headers: Headers): PdfObjectMetadata | null =>
  decodePdfObjectMetadata(
    Object.fromEntries(
      [...headers]
        .filter(([name]) => name.startsWith(METADATA_HEADER))
        .map(([name, value]) => [name.slice(METADATA_HEADER.length), value]),
    ),
  );

export function createPdfEdgeCache(cache: Cache): PdfEdgeCache {
  return {
    async match(uuid) {
      try {
        const cached = await cache.match(keyOf(uuid));
        if (!cached) return null;
        const metadata = metadataOf(cached.headers);
        const bytes = new Uint8Array(await cached.arrayBuffer());
        return metadata && { bytes, metadata };
      } catch (error) {
        logFailure({ event: "edge_cache_failed" }, error);
        return null;
      }
    },
    async put(uuid, pdf, lifetimeMs) {
      const maxAge = Math.floor(lifetimeMs / 1000);
      if (maxAge <= 0) return;
      // This max-age is the cache's own: the answer to a link is built
      // afresh from the bytes, with the contract's headers.
      await cache.put(
        keyOf(uuid),
        new Response(pdf.bytes, {
          headers: [
            ["Content-Type", "application/pdf"],
            ["Cache-Control", `max-age=${maxAge}`],
            ...metadataHeaders(pdf.metadata),
          ],
        }),
      );
    },
  };
}
