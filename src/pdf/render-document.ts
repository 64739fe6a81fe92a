import { PDFDocument } from "@cantoo/pdf-lib";
import type {
  DocumentPdf,
  DocumentPdfInput,
} from "../domain/documents/render-port";
import { documentContent } from "./document-content";
import { type PdfDrawing, STREAM_DRAWING } from "./drawing";
import { documentWording, LANGUAGE_TAGS } from "./i18n";
import { paginate } from "./page-flow";
import { contentArea, drawPageFrame, markingOf, pageFrame } from "./page-frame";
import { printedDocument } from "./printed-document";
import { PAGE, textStyles } from "./styles";

const PRODUCER = "DeCA service (pdf-lib)";

/** The control document as the service issues it. */
export const renderDocumentPdf = (
  input: DocumentPdfInput,
): Promise<DocumentPdf> => drawDocumentPdf(input, STREAM_DRAWING);

/**
 * The control document as an A4 PDF, drawn with `drawing`. Pure: the same
 * input gives the same bytes (dates come from `createdAt`, nothing random is
 * written).
 */
export async function drawDocumentPdf(
  input: DocumentPdfInput,
  drawing: PdfDrawing,
): Promise<DocumentPdf> {
  const wording = documentWording(input.locale);
  const pdf = await PDFDocument.create({ updateMetadata: false });
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
  pages.forEach((blocks, index) => {
    const canvas = drawing.canvas(pdf.addPage([PAGE.width, PAGE.height]));
    drawPageFrame(canvas, frame, index + 1, pages.length);
    for (const { block, top } of blocks) block.draw(canvas, top);
    canvas.finish();
  });

  const created = new Date(input.createdAt);
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

  // No yielding to timers between objects: the whole save runs at once.
  const bytes = await pdf.save({ objectsPerTick: Number.POSITIVE_INFINITY });
  return { bytes, pages: pages.length };
}
