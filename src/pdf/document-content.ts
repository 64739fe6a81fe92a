import {
  COLUMN_GAP,
  columnsBlock,
  drawColumns,
  flowingBlocks,
  HALF_WIDTH,
  linesBlock,
} from "./blocks";
import { rectificationBox } from "./correction-box";
import { printable } from "./fonts";
import type { DocumentWording, Messages } from "./i18n";
import { drawLines, heightOf, type Line, wrappedLines } from "./lines";
import type { Block } from "./page-flow";
import type { PrintedDocument } from "./printed-document";
import {
  DOCUMENT_FIELDS,
  type DocumentField,
  NOT_GIVEN,
  type Part,
  type PrintedData,
  partsInOrder,
  SHIPMENT_FIELDS,
  type ShipmentField,
} from "./printed-fields";
import type { QrSquare } from "./qr-code";
import { shipmentTable } from "./shipment-table";
import { CONTENT_WIDTH, PAGE, type TextStyles, widthIn } from "./styles";

/**
 * 120 pt is 42 mm, quiet zone included: the symbol of a QR link (version 6,
 * 41 modules) is 35 mm wide, which a phone reads from paper or a screen.
 */
const QR_SIZE = 120;
/** Wider than the code, so that the caption in two languages takes three lines. */
const CAPTION_WIDTH = 170;
const SECTION_GAP = 10;
const FIELD_GAP = 4;
const HEADING_GAP = 4;

/** How each kind of content turns into lines, in a document's styles and labels. */
function writer(styles: TextStyles) {
  const heading = (title: string, width: number) =>
    wrappedLines(title, styles.heading, width, SECTION_GAP).map((line) => ({
      ...line,
      underlined: true,
    }));
  const value = (text: string | null, width: number) =>
    wrappedLines(printable(text ?? NOT_GIVEN), styles.value, width);
  const field = (
    label: string,
    text: string | null,
    width: number,
    spaceBefore = FIELD_GAP,
  ): Line[] => [
    ...wrappedLines(label, styles.label, width, spaceBefore),
    ...value(text, width),
  ];
  /** A section in a column: its heading, then its fields. */
  const section = (
    title: string,
    fields: readonly [label: string, text: string | null][],
  ): Line[] => [
    ...heading(title, HALF_WIDTH),
    ...fields.flatMap(([label, text], index) =>
      field(label, text, HALF_WIDTH, index === 0 ? HEADING_GAP : FIELD_GAP),
    ),
  ];
  return { heading, value, field, section };
}

/** The QR code's square, at the right margin, in the block whose top is `top`. */
export const qrSquare = (top: number): QrSquare => ({
  x: PAGE.width - PAGE.margin - QR_SIZE,
  top,
  size: QR_SIZE,
});

/** A field's label and printed text, as its section prints them. */
const entry = (
  messages: Messages,
  field: { label: keyof Messages },
  text: string | null,
): [label: string, text: string | null] => [messages[field.label], text];

/** Everything a document prints below the page header, in reading order. */
export function documentContent(
  document: PrintedDocument,
  wording: DocumentWording,
  styles: TextStyles,
): Block[] {
  const messages = wording.printed;
  const write = writer(styles);
  const { printed } = document;
  const fields = (...keys: DocumentField[]) =>
    keys.map((key) =>
      entry(messages, DOCUMENT_FIELDS[key], printed.fields[key]),
    );
  const parts: Record<Part, () => Block[]> = {
    parties: () => [
      columnsBlock(
        write.section(
          messages.shipper,
          fields("shipper.name", "shipper.tax_id", "shipper.address"),
        ),
        write.section(
          messages.carrier,
          fields("carrier.name", "carrier.tax_id", "carrier.address"),
        ),
      ),
    ],
    shipments: () =>
      printed.grouped
        ? shipmentTable(printed, messages, styles, (title) =>
            write.heading(title, CONTENT_WIDTH),
          )
        : singleShipment(printed, messages, styles),
    vehicle: () => [
      columnsBlock(
        write.section(
          messages.vehicle,
          fields("vehicle.registration", "vehicle.trailer_registration"),
        ),
        write.section(
          messages.specialAuthorization,
          fields(
            "special_authorization.number",
            "special_authorization.issuer",
          ),
        ),
      ),
    ],
    observations: () => [
      linesBlock(write.heading(messages.observations, CONTENT_WIDTH), true),
      ...flowingBlocks(write.value(printed.fields.observations, CONTENT_WIDTH)),
    ],
  };
  return [
    identificationBlock(document, wording, styles),
    ...partsInOrder(printed.grouped).flatMap((part) => parts[part]()),
  ];
}

/** The one shipment of a document: origin and destination side by side, then its goods. */
function singleShipment(
  printed: PrintedData,
  messages: Messages,
  styles: TextStyles,
): Block[] {
  const write = writer(styles);
  const shipment = printed.shipments[0] as PrintedData["shipments"][number];
  const fields = (...keys: ShipmentField[]) =>
    keys.map((key) => entry(messages, SHIPMENT_FIELDS[key], shipment[key]));
  // The weight, or the other measure when the goods have none.
  const [quantityLabel, quantity] = fields(
    shipment["goods.weight_kg"] !== null
      ? "goods.weight_kg"
      : "goods.alternative_measure",
  )[0] as [string, string | null];
  return [
    columnsBlock(
      write.section(messages.origin, fields("origin.place", "origin.address")),
      write.section(
        messages.destination,
        fields("destination.place", "destination.address"),
      ),
    ),
    linesBlock(
      [
        ...write.heading(messages.goods, CONTENT_WIDTH),
        ...wrappedLines(
          messages.description,
          styles.label,
          CONTENT_WIDTH,
          HEADING_GAP,
        ),
      ],
      true,
    ),
    ...flowingBlocks(write.value(shipment["goods.description"], CONTENT_WIDTH)),
    linesBlock(write.field(quantityLabel, quantity, CONTENT_WIDTH)),
  ];
}

/**
 * Reference and transport date, then the time of issue on the left (the
 * uuid is in every page's header), under them what a correction rectifies,
 * and the QR code on the right, with its caption under it, flush right.
 */
function identificationBlock(
  document: PrintedDocument,
  wording: DocumentWording,
  styles: TextStyles,
): Block {
  const messages = wording.printed;
  const write = writer(styles);
  const width = CONTENT_WIDTH - QR_SIZE - COLUMN_GAP;
  const half = (width - COLUMN_GAP) / 2;
  const reference = write.field(
    messages.reference,
    document.reference,
    half,
    0,
  );
  const transportDate = write.field(
    ...entry(
      messages,
      DOCUMENT_FIELDS.transport_date,
      document.printed.fields.transport_date,
    ),
    half,
    0,
  );
  const firstRow = Math.max(heightOf(reference), heightOf(transportDate));
  const issuedAt = write.field(messages.issuedAt, document.timeOfIssue, width);
  const identity = firstRow + heightOf(issuedAt);
  // Clear of the caption, which reaches under the code further left.
  const boxWidth = CONTENT_WIDTH - CAPTION_WIDTH - COLUMN_GAP;
  const box =
    document.rectifies &&
    rectificationBox(document.rectifies, wording, styles, boxWidth);
  const left = identity + (box ? SECTION_GAP + box.height : 0);
  const caption = wrappedLines(messages.qrCaption, styles.small, CAPTION_WIDTH);
  return {
    height: Math.max(left, QR_SIZE + heightOf(caption)),
    draw(canvas, top) {
      const column = { x: PAGE.margin, width };
      drawColumns(canvas, reference, transportDate, column, top);
      drawLines(canvas, issuedAt, column, top - firstRow);
      box?.draw(canvas, top - identity - SECTION_GAP);
      const qr = qrSquare(top);
      canvas.qrCode(document.qrUrl, qr);
      const right = qr.x + qr.size;
      let bottom = top - qr.size;
      for (const line of caption) {
        bottom -= line.style.leading;
        const flushRight = right - widthIn(line.text, line.style);
        canvas.text(line.text, line.style, flushRight, bottom);
      }
    },
  };
}
