import type { FallbackFamily } from "../../font-coverage/fallback-families";
import type { DocumentLocale } from "../../schemas/document-locale";
import type { DocumentData } from "../../schemas/document-request";
import type { SEAL_LEVELS } from "../../schemas/document-result";
import type { Environment } from "../../schemas/environment";

// What the domain asks of the PDF renderer: src/pdf implements it, and the
// app is handed the renderer (tests pass another one).

/** Renders a document's PDF. */
export type RenderPdf = (input: DocumentPdfInput) => Promise<DocumentPdf>;

/** Font files by fallback family. */
export type FontFiles = ReadonlyMap<FallbackFamily, Uint8Array>;

/** A document as issued: its transport data and what the service adds. */
export interface IssuedDocument {
  data: DocumentData;
  uuid: string;
  /** Creation time, epoch milliseconds. */
  createdAt: number;
  /** The version this one corrects, or null for an initial issue. */
  rectifies: RectifiedVersion | null;
  /** The QR link that downloads the PDF. */
  qrUrl: string;
}

/** The version a correction rectifies: its data says what the correction changed. */
export interface RectifiedVersion {
  uuid: string;
  data: DocumentData;
}

export interface DocumentPdfInput extends IssuedDocument {
  /** The language of the labels (with the Spanish beside them); data prints as given. */
  locale: DocumentLocale;
  /** Where it was issued: a test or demo document is marked not valid on every page (docs/pdf.md). */
  environment: Environment;
  /** The fallback fonts for what Noto Sans lacks; none for most documents. */
  fallbackFonts?: FontFiles;
  /** The electronic seal every PDF is signed with (docs/pdf.md "The seal"). */
  seal: PdfSeal;
}

/** The service's electronic seal of a document's environment. */
export interface PdfSeal {
  /** Its certificate's common name: page 1 prints it, the signature names it. */
  name: string;
  /** The most bytes its CMS signature takes, reserved in the file. */
  maxBytes: number;
  /** The CMS signature of `digest` (SHA-256 of the signed bytes), and what it is. */
  sign(digest: Uint8Array): Promise<{ cms: Uint8Array; facts: SealFacts }>;
}

/** What a PDF's seal is, as the result's `pdf.seal` says. */
export interface SealFacts {
  /** PAdES baseline level: B-T carries a time-stamping authority's token. */
  level: (typeof SEAL_LEVELS)[number];
  /** The seal certificate's subject. */
  subject: string;
  /** The timestamp token's time, epoch milliseconds; null at B-B. */
  timestamp: number | null;
}

export interface DocumentPdf {
  /** The sealed file. */
  bytes: Uint8Array;
  pages: number;
  seal: SealFacts;
}
