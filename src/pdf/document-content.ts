import type {
  IssuedDocument,
  RectifiedVersion,
} from "../domain/documents/render-port";
import {
  type DocumentData,
  type Shipment,
  shipmentsOf,
} from "../schemas/document-request";
import {
  COLUMN_GAP,
  columnsBlock,
  drawColumns,
  flowingBlocks,
  HALF_WIDTH,
  linesBlock,
} from "./blocks";
import { changedFields, changesVehicle } from "./changed-fields";
import { changeList } from "./field-names";
import { printable } from "./fonts";
import {
  formatDate,
  formatLocalTime,
  formatMeasure,
  formatWeight,
} from "./format";
import type { DocumentWording, Messages } from "./i18n";
import { drawLines, heightOf, type Line, wrappedLines } from "./lines";
import { originTimeZone } from "./origin-time-zone";
import type { Block } from "./page-flow";
import type { QrSquare } from "./qr-code";
import {
  COLORS,
  CONTENT_WIDTH,
  PAGE,
  type TextStyles,
  widthIn,
} from "./styles";

/** Printed for an optional item that was not given. */
const NOT_GIVEN = "—";
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
const BOX_PADDING = 6;

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

/** An address or a transport location; a location may lack street and postal code. */
interface PostalAddress {
  street: string | null;
  postal_code: string | null;
  city: string;
  country: string;
}

/** Street, then postal code and city, then country, one per line. */
const addressLines = (address: PostalAddress): string =>
  [
    address.street,
    [address.postal_code, address.city].filter(Boolean).join(" "),
    address.country,
  ]
    .filter(Boolean)
    .join("\n");

/** The QR code's square, at the right margin, in the block whose top is `top`. */
export const qrSquare = (top: number): QrSquare => ({
  x: PAGE.width - PAGE.margin - QR_SIZE,
  top,
  size: QR_SIZE,
});

const withCountry = (identifier: string, country: string): string =>
  `${identifier} (${country})`;

/** Everything a document prints below the page header, in reading order. */
export function documentContent(
  document: IssuedDocument,
  wording: DocumentWording,
  styles: TextStyles,
): Block[] {
  const messages = wording.printed;
  const write = writer(styles);
  const { data } = document;
  const { shipper, carrier, vehicle } = data;
  // Until the document prints a table of shipments: the first one.
  const { origin, destination, goods } = shipmentsOf(data)[0] as Shipment;
  const authorization = data.special_authorization;
  return [
    identificationBlock(document, wording, styles),
    columnsBlock(
      write.section(messages.shipper, [
        [messages.name, shipper.name],
        [messages.taxId, withCountry(shipper.tax_id, shipper.tax_country)],
        [messages.registeredAddress, addressLines(shipper.address)],
      ]),
      write.section(messages.carrier, [
        [messages.name, carrier.name],
        [messages.taxId, withCountry(carrier.tax_id, carrier.tax_country)],
        [
          messages.registeredAddress,
          carrier.address && addressLines(carrier.address),
        ],
      ]),
    ),
    columnsBlock(
      write.section(messages.origin, [
        [messages.place, origin.place],
        [messages.address, addressLines(origin)],
      ]),
      write.section(messages.destination, [
        [messages.place, destination.place],
        [messages.address, addressLines(destination)],
      ]),
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
    ...flowingBlocks(write.value(goods.description, CONTENT_WIDTH)),
    linesBlock(
      goods.weight_kg !== null
        ? write.field(
            messages.weight,
            formatWeight(goods.weight_kg),
            CONTENT_WIDTH,
          )
        : write.field(
            messages.alternativeMeasure,
            goods.alternative_measure &&
              formatMeasure(
                goods.alternative_measure.value,
                goods.alternative_measure.unit,
              ),
            CONTENT_WIDTH,
          ),
    ),
    columnsBlock(
      write.section(messages.vehicle, [
        [
          messages.vehicleRegistration,
          withCountry(vehicle.registration, vehicle.country),
        ],
        [
          messages.trailerRegistration,
          vehicle.trailer_registration &&
            vehicle.trailer_country &&
            withCountry(vehicle.trailer_registration, vehicle.trailer_country),
        ],
      ]),
      write.section(messages.specialAuthorization, [
        [messages.authorizationNumber, authorization?.number ?? null],
        [messages.authorizationIssuer, authorization?.issuer ?? null],
      ]),
    ),
    linesBlock(write.heading(messages.observations, CONTENT_WIDTH), true),
    ...flowingBlocks(write.value(data.observations, CONTENT_WIDTH)),
  ];
}

/**
 * Reference and transport date, then the time of issue on the left (the
 * uuid is in every page's header), under them what a correction rectifies,
 * and the QR code on the right, with its caption under it, flush right.
 */
function identificationBlock(
  document: IssuedDocument,
  wording: DocumentWording,
  styles: TextStyles,
): Block {
  const messages = wording.printed;
  const write = writer(styles);
  const width = CONTENT_WIDTH - QR_SIZE - COLUMN_GAP;
  const half = (width - COLUMN_GAP) / 2;
  const { data } = document;
  const reference = write.field(messages.reference, data.reference, half, 0);
  const transportDate = write.field(
    messages.transportDate,
    formatDate(data.transport_date),
    half,
    0,
  );
  const firstRow = Math.max(heightOf(reference), heightOf(transportDate));
  const issuedAt = write.field(
    messages.issuedAt,
    timeOfIssue(document, messages),
    width,
  );
  const identity = firstRow + heightOf(issuedAt);
  // Clear of the caption, which reaches under the code further left.
  const boxWidth = CONTENT_WIDTH - CAPTION_WIDTH - COLUMN_GAP;
  const box =
    document.rectifies &&
    rectificationBox(data, document.rectifies, wording, styles, boxWidth);
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

/** The time of issue on the clocks of the place of loading, with their offset. */
function timeOfIssue(document: IssuedDocument, messages: Messages): string {
  const zone = originTimeZone(
    (shipmentsOf(document.data)[0] as Shipment).origin,
  );
  const zoneName =
    zone === "Atlantic/Canary" ? messages.canaryTime : messages.peninsularTime;
  return formatLocalTime(document.createdAt, zone, zoneName);
}

/**
 * A correction says, in a tinted box `width` wide at the left margin, which
 * document it rectifies and which printed fields it changed (a change of
 * vehicle first: art. 6 g of Orden FOM/2861/2012 asks that it be recorded),
 * the list in the document's language, then in Spanish.
 */
function rectificationBox(
  data: DocumentData,
  rectifies: RectifiedVersion,
  { own, spanish, printed }: DocumentWording,
  styles: TextStyles,
  width: number,
): Block {
  const inner = width - 2 * BOX_PADDING;
  const changes = changedFields(rectifies.data, data);
  const lines = [
    ...wrappedLines(
      `${printed.rectifies} ${rectifies.uuid}`,
      styles.emphasis,
      inner,
    ),
    ...(changesVehicle(changes)
      ? wrappedLines(printed.changeOfVehicle, styles.emphasis, inner)
      : []),
    ...(changes.length === 0
      ? wrappedLines(printed.noChanges, styles.value, inner)
      : [
          ...wrappedLines(changeList(own, changes), styles.value, inner),
          ...(spanish
            ? wrappedLines(changeList(spanish, changes), styles.small, inner)
            : []),
        ]),
  ];
  const height = heightOf(lines) + 2 * BOX_PADDING;
  return {
    height,
    draw(canvas, top) {
      canvas.page.drawRectangle({
        x: PAGE.margin,
        y: top - height,
        width,
        height,
        color: COLORS.highlight,
        borderColor: COLORS.accent,
        borderWidth: 0.8,
      });
      drawLines(
        canvas,
        lines,
        { x: PAGE.margin + BOX_PADDING, width: inner },
        top - BOX_PADDING,
      );
    },
  };
}
