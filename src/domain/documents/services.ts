import type { Clock } from "../../clock";
import type { Database } from "../../db/client";
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
  rectifiesUuid: string | null;
  qrUrl: string;
  locale: DocumentLocale;
  demo: boolean;
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
  locks: Locks;
  rateLimits: RateLimits;
  demo: DemoConfig;
  /** Public origin of the links in results, such as `https://deca.example`. */
  baseUrl: string;
  /** Recorded with every audit event. */
  requestId: string;
}
