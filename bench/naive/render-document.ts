// A copy of the renderer before issue 7, with plain font embedding (fonts.ts): the naive baseline of `npm run bench`.
import { PDFDocument } from "@cantoo/pdf-lib";
import { CATALOGS, LANGUAGE_TAGS } from "../../src/pdf/i18n";
import { paginate } from "../../src/pdf/page-flow";
import { PAGE, textStyles } from "../../src/pdf/styles";
import type { DocumentLocale } from "../../src/schemas/document-locale";
import { documentContent, type IssuedDocument } from "./document-content";
import { embedDocumentFonts } from "./fonts";
import { contentArea, drawPageFrame, pageFrame } from "./page-frame";

export type { IssuedDocument } from "./document-content";

export interface DocumentPdfInput extends IssuedDocument {
  /** The language of the labels; data prints as given. */
  locale: DocumentLocale;
  /** A demo document: "not valid" beside the logo, DEMO across every page. */
  demo: boolean;
}

export interface DocumentPdf {
  bytes: Uint8Array;
  pages: number;
}

const PRODUCER = "DeCA service (pdf-lib)";

/**
 * The control document as an A4 PDF. Pure: the same input gives the same
 * bytes (dates come from `createdAt`, nothing random is written).
 */
export async function renderDocumentPdf(
  input: DocumentPdfInput,
): Promise<DocumentPdf> {
  const messages = CATALOGS[input.locale];
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const styles = textStyles(await embedDocumentFonts(pdf));
  const frame = pageFrame({
    messages,
    styles,
    uuid: input.uuid,
    demo: input.demo,
  });

  const pages = paginate(
    documentContent(input, messages, styles),
    contentArea(frame),
  );
  pages.forEach((blocks, index) => {
    const page = pdf.addPage([PAGE.width, PAGE.height]);
    drawPageFrame(page, frame, index + 1, pages.length);
    for (const { block, top } of blocks) block.draw(page, top);
  });

  const created = new Date(input.createdAt);
  pdf.setTitle(`${messages.title} ${input.uuid}`, {
    showInWindowTitleBar: true,
  });
  pdf.setLanguage(LANGUAGE_TAGS[input.locale]);
  pdf.setProducer(PRODUCER);
  pdf.setCreator(PRODUCER);
  pdf.setCreationDate(created);
  pdf.setModificationDate(created);

  // No yielding to timers between objects: the whole save runs at once.
  const bytes = await pdf.save({ objectsPerTick: Number.POSITIVE_INFINITY });
  return { bytes, pages: pages.length };
}
