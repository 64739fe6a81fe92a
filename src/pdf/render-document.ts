import { PDFDocument } from "@cantoo/pdf-lib";
import type {
  DocumentPdf,
  DocumentPdfInput,
} from "../domain/documents/render-port";
import { deflateDrawnStreams, deflateNatively } from "./deflate";
import { documentContent } from "./document-content";
import { type PdfDrawing, STREAM_DRAWING } from "./drawing";
import { documentWording, LANGUAGE_TAGS } from "./i18n";
import { paginate } from "./page-flow";
import { contentArea, drawPageFrame, markingOf, pageFrame } from "./page-frame";
import { printedDocument } from "./printed-document";
import { addSealField, sealBytes } from "./seal";
import { PAGE, textStyles } from "./styles";

const PRODUCER = "DeCA service (pdf-lib)";

/** The control document as the service issues it. */
export const renderDocumentPdf = (
  input: DocumentPdfInput,
): Promise<DocumentPdf> => drawDocumentPdf(input, STREAM_DRAWING);

/**
 * The control document as an A4 PDF, drawn with `drawing`. Sealed. Pure but
 * for a B-T seal's timestamp: the same input gives the same bytes (dates come
 * from `createdAt`, nothing random is written, and the seal's RSA signature
 * is deterministic).
 */
export async function drawDocumentPdf(
  input: DocumentPdfInput,
  drawing: PdfDrawing,
): Promise<DocumentPdf> {
  const { unsealed, pages } = await drawUnsealedPdf(input, drawing);
  const { bytes, seal } = await sealBytes(unsealed, input.seal);
  return { bytes, pages, seal };
}

/**
 * The document's file with its seal's room reserved, not yet signed (the
 * benchmark measures the seal apart from it).
 */
export async function drawUnsealedPdf(
  input: DocumentPdfInput,
  drawing: PdfDrawing,
): Promise<{ unsealed: Uint8Array; pages: number }> {
  const wording = documentWording(input.locale);
  const pdf = await PDFDocument.create({ updateMetadata: false });
  deflateNatively(pdf);
  const styles = textStyles(
    await drawing.embedFonts(pdf, input.fallbackFonts ?? new Map()),
  );
  const frame = pageFrame({
    wording,
    styles,
    uuid: input.uuid,
    reference: input.data.reference,
    qrUrl: input.qrUrl,
    marking: markingOf(input.environment, wording),
    sealName: input.seal.name,
  });

  const area = contentArea(frame);
  const pages = paginate(
    documentContent(
      printedDocument(input, wording.printed),
      wording,
      styles,
      area.top - area.bottom,
    ),
    area,
  );
  const created = new Date(input.createdAt);
  pages.forEach((blocks, index) => {
    const page = pdf.addPage([PAGE.width, PAGE.height]);
    if (index === 0) addSealField(pdf, page, input.seal, created);
    const canvas = drawing.canvas(page);
    drawPageFrame(canvas, frame, index + 1, pages.length);
    for (const { block, top } of blocks) block.draw(canvas, top);
    canvas.finish();
  });

  // A marked document says so wherever a reader lists the file or a browser
  // opens it (its QR link), not only on its pages.
  const { marking } = frame;
  const title = `${wording.own.title} ${input.uuid}`;
  pdf.setTitle(
    marking ? `${marking.word} — ${marking.notValid} — ${title}` : title,
    { showInWindowTitleBar: true },
  );
  pdf.setLanguage(LANGUAGE_TAGS[input.locale]);
  pdf.setProducer(PRODUCER);
  pdf.setCreator(PRODUCER);
  pdf.setCreationDate(created);
  pdf.setModificationDate(created);

  deflateDrawnStreams(pdf);
  // No yielding to timers between objects: the whole save runs at once.
  const unsealed = await pdf.save({
    objectsPerTick: Number.POSITIVE_INFINITY,
  });
  return { unsealed, pages: pages.length };
}
