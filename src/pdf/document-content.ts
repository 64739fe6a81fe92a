import { COLUMN_GAP, columnsBlock, HALF_WIDTH, linesBlock } from "./blocks";
import {
  continuedOnPage,
  continuedTitle,
  flowingText,
  type TextFlow,
} from "./continued-text";
import { rectificationBox } from "./correction-box";
import { shipmentFieldName } from "./field-names";
import { printable } from "./fonts";
import type { DocumentWording, MessageKey, Messages } from "./i18n";
import { keyFactsBand } from "./key-facts";
import { drawLines, heightOf, type Line, wrappedLines } from "./lines";
import type { Block, PageMark } from "./page-flow";
import type { PrintedDocument } from "./printed-document";
import {
  DOCUMENT_FIELDS,
  type DocumentField,
  NOT_GIVEN,
  type PrintedData,
  runOn,
  SHIPMENT_FIELDS,
  type ShipmentField,
} from "./printed-fields";
import type { QrSquare } from "./qr-code";
import {
  type CutCell,
  type ShipmentTable,
  shipmentTable,
} from "./shipment-table";
import { CONTENT_WIDTH, PAGE, type TextStyles, widthIn } from "./styles";

/**
 * 120 pt is 42 mm, quiet zone included: the symbol of a QR link (version 6,
 * 41 modules) is 35 mm wide, which a phone reads from paper or a screen.
 */
const QR_SIZE = 120;
/** Beside the key facts, the code and its caption. */
const CAPTION_WIDTH = QR_SIZE + COLUMN_GAP / 2;
const SECTION_GAP = 10;
const FIELD_GAP = 4;
const HEADING_GAP = 4;

/**
 * How page 1 lays out its values: the lines of a value that it prints at
 * most, "continued on page N" the last of them when the value goes on, and
 * whether an address runs on, its parts joined by commas (docs/pdf.md,
 * Page 1).
 */
interface PageOneFit {
  lines: number;
  runOn: boolean;
}

/** Nothing cut: for a document that page 1 holds whole. */
const WHOLE: PageOneFit = { lines: Number.POSITIVE_INFINITY, runOn: false };
/** Three lines: an address's. */
const ROOMY: PageOneFit = { lines: 3, runOn: false };
const RUN_ON: PageOneFit = { lines: 3, runOn: true };
/** Where page 1 would not hold what an inspector checks otherwise. */
const SHORT: PageOneFit = { lines: 2, runOn: true };

/** A text that page 1 cuts: where it goes on, under its section's "(continued)". */
interface Continuation {
  section: MessageKey;
  label: string | null;
  lines: Line[];
  width: number;
  mark: PageMark;
}

/** Page 1's blocks, and the texts it cut. */
interface PageOne {
  blocks: Block[];
  continuations: Continuation[];
}

/** How each kind of content turns into lines, in a document's styles and labels. */
function writer(
  styles: TextStyles,
  printed: Messages,
  continuations: Continuation[] = [],
  pageOneLines: number = ROOMY.lines,
) {
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
  /**
   * Lines of a value that page 1 cuts after `pageOneLines`, saying where
   * the rest goes on (under `section`'s "(continued)" and `label`), which it
   * records.
   */
  const cut = (
    section: MessageKey,
    label: string | null,
    lines: Line[],
    width: number,
  ): Line[] => {
    if (lines.length <= pageOneLines) return lines;
    const mark: PageMark = {};
    const kept = pageOneLines - 1;
    continuations.push({
      section,
      label,
      lines: lines.slice(kept),
      width,
      mark,
    });
    return [
      ...lines.slice(0, kept),
      ...continuedOnPage(printed, mark, styles.label, width),
    ];
  };
  /** A field whose value page 1 cuts. */
  const cutField = (
    section: MessageKey,
    label: string | null,
    text: string | null,
    width: number,
    spaceBefore = FIELD_GAP,
  ): Line[] => [
    ...(label === null
      ? []
      : wrappedLines(label, styles.label, width, spaceBefore)),
    ...cut(section, label, value(text, width), width),
  ];
  /** A section in a column: its heading, then its fields, cut on page 1. */
  const section = (
    title: MessageKey,
    fields: readonly [label: string, text: string | null][],
  ): Line[] => [
    ...heading(printed[title], HALF_WIDTH),
    ...fields.flatMap(([label, text], index) =>
      cutField(
        title,
        label,
        text,
        HALF_WIDTH,
        index === 0 ? HEADING_GAP : FIELD_GAP,
      ),
    ),
  ];
  return { heading, value, field, cut, cutField, section };
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

const FULL_WIDTH = { x: PAGE.margin, width: CONTENT_WIDTH };

/** The addresses, which run on where page 1 needs the room. */
const ADDRESSES: ReadonlySet<string> = new Set<DocumentField | ShipmentField>([
  "shipper.address",
  "carrier.address",
  "origin.address",
  "destination.address",
]);

/** A field's printed text as page 1 lays it out with `fit`. */
function printedText<Key extends string>(
  texts: Record<Key, string | null>,
  key: Key,
  fit: PageOneFit,
): string | null {
  const text = texts[key];
  return fit.runOn && ADDRESSES.has(key) && text !== null ? runOn(text) : text;
}

const blocksHeight = (blocks: readonly Block[]): number =>
  blocks.reduce((sum, block) => sum + block.height, 0);

/**
 * Everything a document prints below the page header, in reading order:
 * page 1's identification, key facts and sections, each long text cut
 * there so that they fit in `pageOneRoom` (docs/pdf.md, Page 1); a
 * correction's box; a grouped document's table; the observations, which
 * flow on; then the rest of each text that page 1 cut.
 */
export function documentContent(
  document: PrintedDocument,
  wording: DocumentWording,
  styles: TextStyles,
  pageOneRoom: number,
): Block[] {
  const messages = wording.printed;
  const write = writer(styles, messages);
  const { printed } = document;
  const box =
    document.rectifies &&
    rectificationBox(document.rectifies, wording, styles, CONTENT_WIDTH);
  const table =
    printed.grouped &&
    shipmentTable(printed, messages, styles, (title) =>
      write.heading(title, CONTENT_WIDTH),
    );
  const observations = [
    linesBlock(write.heading(messages.observations, CONTENT_WIDTH), true),
    flowingText(
      write.value(printed.fields.observations, CONTENT_WIDTH),
      textFlow(wording, styles, "observations", FULL_WIDTH),
    ),
  ];
  // Each page-1 layout is built when first tried: most documents take the
  // first, and building one wraps every text.
  const layouts = new Map<PageOneFit, PageOne>();
  const layOut = (fit: PageOneFit): PageOne => {
    const built =
      layouts.get(fit) ??
      pageOne(document, wording, styles, fit, { pageOneRoom, table });
    layouts.set(fit, built);
    return built;
  };
  const fitting = (fits: readonly PageOneFit[], below: number) => {
    const fit = fits.find(
      (tried) => blocksHeight(layOut(tried).blocks) + below <= pageOneRoom,
    );
    return fit && layOut(fit);
  };
  // As few pages as may be: page 1 holds, if it can, a correction's box
  // and a single shipment's observations, and then no text is cut, or the
  // box; it cuts the texts shorter only for what an inspector checks and
  // the box's lead.
  const boxHeight = box ? SECTION_GAP + box.height : 0;
  const first =
    fitting(
      [WHOLE, ROOMY, RUN_ON],
      boxHeight + (printed.grouped ? 0 : blocksHeight(observations)),
    ) ??
    fitting([ROOMY, RUN_ON], boxHeight) ??
    fitting(
      [ROOMY, RUN_ON, SHORT],
      box ? SECTION_GAP + (box.leadHeight ?? box.height) : 0,
    ) ??
    layOut(SHORT);
  const firstRow = first.continuations.filter(
    ({ section }) => section === "shipments",
  );
  const others = first.continuations.filter(
    (continuation) => !firstRow.includes(continuation),
  );
  const goOn = (continuations: readonly Continuation[]) =>
    continuations.flatMap((continuation) =>
      continued(continuation, wording, styles),
    );
  return [
    ...first.blocks,
    // After what an inspector checks, which it never pushes off page 1.
    ...(box ? correction(box, pageOneRoom - blocksHeight(first.blocks)) : []),
    // The rest of the first row's texts, then the other rows, under the
    // table's running head after what came between.
    ...goOn(firstRow),
    ...(table ? table.rest(Boolean(box) || firstRow.length > 0) : []),
    ...observations,
    ...goOn(others),
  ];
}

/**
 * What page 1 holds whatever the length of the texts: the identification
 * and key facts, the parties, a single shipment, the special authorization;
 * a grouped document's table, from its first row, whole if page 1 has the
 * room or else its texts cut; each value cut as `fit` says, and what it cut.
 */
function pageOne(
  document: PrintedDocument,
  wording: DocumentWording,
  styles: TextStyles,
  fit: PageOneFit,
  { pageOneRoom, table }: { pageOneRoom: number; table: ShipmentTable | false },
): PageOne {
  const messages = wording.printed;
  const continuations: Continuation[] = [];
  const write = writer(styles, messages, continuations, fit.lines);
  const { printed } = document;
  const fields = (...keys: DocumentField[]) =>
    keys.map((key) =>
      entry(
        messages,
        DOCUMENT_FIELDS[key],
        printedText(printed.fields, key, fit),
      ),
    );
  const authorization = () =>
    write.section(
      "specialAuthorization",
      fields("special_authorization.number", "special_authorization.issuer"),
    );
  const essentials = [
    ...identificationBlocks(document, wording, styles, write),
    columnsBlock(
      write.section(
        "shipper",
        fields("shipper.name", "shipper.tax_id", "shipper.address"),
      ),
      write.section(
        "carrier",
        fields("carrier.name", "carrier.tax_id", "carrier.address"),
      ),
    ),
    // The registrations print in the key facts; the special authorization
    // beside a single shipment's goods.
    ...(printed.grouped
      ? [columnsBlock(authorization(), [])]
      : singleShipment(printed, messages, write, authorization, fit)),
  ];
  if (!table) return { blocks: essentials, continuations };
  const whole = [...essentials, ...table.start()];
  if (blocksHeight(whole) <= pageOneRoom)
    return { blocks: whole, continuations };
  const cut: CutCell = (lines, field, width) =>
    write.cut("shipments", shipmentFieldName(wording, 1, field), lines, width);
  return { blocks: [...essentials, ...table.start(cut)], continuations };
}

/**
 * A correction's box, a gap above it, split so that its first part fills the
 * `room` left on page 1 and the rest starts page 2.
 */
function correction(box: Block, room: number): Block[] {
  const gap: Block = { height: SECTION_GAP, keepWithNext: true, draw() {} };
  const parts =
    box.height + SECTION_GAP > room && box.split?.(room - SECTION_GAP);
  return parts ? [gap, ...parts] : [gap, box];
}

/** How a text of `section` flows in `column`, a page that continues it headed "(continued)". */
function textFlow(
  wording: DocumentWording,
  styles: TextStyles,
  section: MessageKey,
  column: TextFlow["column"],
  label: string | null = null,
): TextFlow {
  const write = writer(styles, wording.printed);
  const head = [
    ...write.heading(continuedTitle(wording, section), column.width),
    ...(label === null
      ? []
      : wrappedLines(label, styles.label, column.width, HEADING_GAP)),
  ];
  return {
    column,
    printed: wording.printed,
    styles,
    head: {
      height: heightOf(head),
      draw: (canvas, top) => drawLines(canvas, head, column, top),
    },
  };
}

/** The rest of a text that page 1 cut, under its "(continued)" heading, on the page it names. */
function continued(
  { section, label, lines, width, mark }: Continuation,
  wording: DocumentWording,
  styles: TextStyles,
): Block[] {
  // A field that is its section (the reference) is not named twice.
  const name = label === wording.printed[section] ? null : label;
  const column = { x: PAGE.margin, width };
  const flow = textFlow(wording, styles, section, column, name);
  return [{ ...flow.head, keepWithNext: true, mark }, flowingText(lines, flow)];
}

/**
 * The one shipment of a document: origin and destination side by side, then
 * its goods (nature, weight or measure) beside `authorization`.
 */
function singleShipment(
  printed: PrintedData,
  messages: Messages,
  write: ReturnType<typeof writer>,
  authorization: () => Line[],
  fit: PageOneFit,
): Block[] {
  const shipment = printed.shipments[0] as PrintedData["shipments"][number];
  const fields = (...keys: ShipmentField[]) =>
    keys.map((key) =>
      entry(messages, SHIPMENT_FIELDS[key], printedText(shipment, key, fit)),
    );
  return [
    columnsBlock(
      write.section("origin", fields("origin.place", "origin.address")),
      write.section(
        "destination",
        fields("destination.place", "destination.address"),
      ),
    ),
    columnsBlock(
      write.section(
        "goods",
        // The weight, or the other measure when the goods have none.
        fields(
          "goods.description",
          shipment["goods.weight_kg"] !== null
            ? "goods.weight_kg"
            : "goods.alternative_measure",
        ),
      ),
      authorization(),
    ),
  ];
}

/**
 * The key facts, and the QR code on the right with its caption under it,
 * flush right; under them the reference and the time of issue (the uuid is
 * in every page's header).
 */
function identificationBlocks(
  document: PrintedDocument,
  wording: DocumentWording,
  styles: TextStyles,
  write: ReturnType<typeof writer>,
): Block[] {
  const messages = wording.printed;
  const band = keyFactsBand(
    document.printed,
    messages,
    styles,
    CONTENT_WIDTH - CAPTION_WIDTH - COLUMN_GAP / 2,
  );
  const caption = wrappedLines(messages.qrCaption, styles.small, CAPTION_WIDTH);
  return [
    {
      height: Math.max(band.height, QR_SIZE + heightOf(caption)),
      draw(canvas, top) {
        band.draw(canvas, PAGE.margin, top);
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
    },
    columnsBlock(
      write.cutField(
        "reference",
        messages.reference,
        document.reference,
        HALF_WIDTH,
        0,
      ),
      write.field(messages.issuedAt, document.timeOfIssue, HALF_WIDTH, 0),
    ),
  ];
}
