import type { Clock } from "../../clock";
import type { Database } from "../../db/client";
import type { FallbackFamily } from "../../pdf/fallback-families";
import type { DocumentLocale } from "../../schemas/document-locale";
import type { DocumentData } from "../../schemas/document-request";
import type { Keyring } from "../../storage/keyring";
import type { PdfStore } from "../../storage/pdf-store";
import type { DemoConfig } from "../demo/demo-config";
import type { Locks } from "../locks";
import type { RateLimits } from "../rate-limits";

/** What the PDF renderer is given: the data and what issuing adds to it. */
interface RenderRequest {
  data: DocumentData;
  uuid: string;
  createdAt: number;
  /** For a correction, the version it rectifies, whose data it is compared with. */
  rectifies: { uuid: string; data: DocumentData } | null;
  qrUrl: string;
  locale: DocumentLocale;
  demo: boolean;
  /** The fallback fonts that the data needs (see fallback-fonts.ts). */
  fallbackFonts: FontFiles;
}

/** Font files by fallback family. */
export type FontFiles = ReadonlyMap<FallbackFamily, Uint8Array>;

/** Where the fallback fonts come from (R2 in the Worker). */
export interface FontSource {
  /** Throws 503 SERVICE_UNAVAILABLE when the file cannot be had. */
  load(family: FallbackFamily): Promise<Uint8Array>;
}

export type RenderPdf = (
  request: RenderRequest,
) => Promise<{ bytes: Uint8Array; pages: number }>;

/**
 * Everything the document rules use, passed in so that tests and fault
 * injection can hand over other ones.
 */
export interface DocumentServices {
  db: Database;
  clock: Clock;
  pdfs: PdfStore;
  qrKeyring: Keyring;
  renderPdf: RenderPdf;
  fonts: FontSource;
  locks: Locks;
  rateLimits: RateLimits;
  demo: DemoConfig;
  /** Public origin of the links in results, such as `https://deca.example`. */
  baseUrl: string;
  /** Recorded with every audit event. */
  requestId: string;
}
