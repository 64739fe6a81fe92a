import type { DocumentData } from "../schemas/document-request";
import {
  COLUMN_GAP,
  columnsBlock,
  flowingBlocks,
  HALF_WIDTH,
  linesBlock,
} from "./blocks";
import { printable } from "./fonts";
import { formatMeasure, formatUtcTime, formatWeight } from "./format";
import type { Messages } from "./i18n";
import { drawLines, heightOf, type Line, wrappedLines } from "./lines";
import type { Block } from "./page-flow";
import type { QrSquare } from "./qr-code";
import {
  COLORS,
  CONTENT_WIDTH,
  PAGE,
  type TextStyles,
  widthIn,
} from "./styles";

/** A document as issued: its transport data and what the service adds. */
export interface IssuedDocument {
  data: DocumentData;
  uuid: string;
  /** Creation time, epoch milliseconds. */
  createdAt: number;
  /** The document this one corrects, or null for an initial issue. */
  rectifiesUuid: string | null;
  /** The QR link that downloads the PDF. */
  qrUrl: string;
}

/** Printed for an optional item that was not given. */
const NOT_GIVEN = "—";
/**
 * 120 pt is 42 mm, quiet zone included: the symbol of a QR link (version 6,
 * 41 modules) is 35 mm wide, which a phone reads from paper or a screen.
 */
const QR_SIZE = 120;
const SECTION_GAP = 14;
const FIELD_GAP = 6;
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
  messages: Messages,
  styles: TextStyles,
): Block[] {
  const write = writer(styles);
  const { data } = document;
  const { shipper, carrier, origin, destination, goods, vehicle } = data;
  const authorization = data.special_authorization;
  return [
    identificationBlock(document, messages, styles),
    ...(document.rectifiesUuid
      ? [rectificationBlock(document.rectifiesUuid, messages, styles)]
      : []),
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
 * Reference, creation time and transport date on the left (the uuid is in
 * every page's header), and the QR code on the right, with its caption.
 */
function identificationBlock(
  document: IssuedDocument,
  messages: Messages,
  styles: TextStyles,
): Block {
  const write = writer(styles);
  const width = CONTENT_WIDTH - QR_SIZE - COLUMN_GAP;
  const identity = [
    ...write.field(messages.reference, document.data.reference, width, 0),
    ...write.field(messages.issuedAt, formatUtcTime(document.createdAt), width),
    ...write.field(messages.transportDate, document.data.transport_date, width),
  ];
  const caption = wrappedLines(messages.qrCaption, styles.small, QR_SIZE);
  return {
    height: Math.max(heightOf(identity), QR_SIZE + heightOf(caption)),
    draw(canvas, top) {
      drawLines(canvas, identity, { x: PAGE.margin, width }, top);
      const qr = qrSquare(top);
      canvas.qrCode(document.qrUrl, qr);
      let bottom = top - qr.size;
      for (const line of caption) {
        bottom -= line.style.leading;
        const centred = qr.x + (qr.size - widthIn(line.text, line.style)) / 2;
        canvas.text(line.text, line.style, centred, bottom);
      }
    },
  };
}

/** A correction says, in a tinted box, which document it rectifies. */
function rectificationBlock(
  rectifiesUuid: string,
  messages: Messages,
  styles: TextStyles,
): Block {
  const lines = wrappedLines(
    `${messages.rectifies} ${rectifiesUuid}`,
    styles.emphasis,
    CONTENT_WIDTH - 2 * BOX_PADDING,
  );
  const boxHeight = heightOf(lines) + 2 * BOX_PADDING;
  return {
    height: SECTION_GAP + boxHeight,
    draw(canvas, top) {
      const boxTop = top - SECTION_GAP;
      canvas.page.drawRectangle({
        x: PAGE.margin,
        y: boxTop - boxHeight,
        width: CONTENT_WIDTH,
        height: boxHeight,
        color: COLORS.highlight,
        borderColor: COLORS.accent,
        borderWidth: 0.8,
      });
      drawLines(
        canvas,
        lines,
        { x: PAGE.margin + BOX_PADDING, width: CONTENT_WIDTH },
        boxTop - BOX_PADDING,
      );
    },
  };
}
