import { degrees, type PDFPage } from "@cantoo/pdf-lib";
import type { Environment } from "../schemas/environment";
import type { PageCanvas } from "./drawing";
import { boldOutline } from "./fonts";
import { CATALOGS, type DocumentWording } from "./i18n";
import {
  clippedLines,
  drawLines,
  heightOf,
  type Line,
  wrappedLines,
} from "./lines";
import { drawLogo } from "./logo";
import type { ContentArea } from "./page-flow";
import { NOT_GIVEN } from "./printed-fields";
import type { QrSquare } from "./qr-code";
import {
  COLORS,
  CONTENT_WIDTH,
  PAGE,
  type TextStyle,
  type TextStyles,
  widthIn,
} from "./styles";

/**
 * How a document that no transport may use says so on every page: its word
 * across the page and beside the page number, its "not valid" boxed beside
 * the title, both before the title in the metadata.
 */
export interface Marking {
  word: string;
  notValid: string;
}

/** The marking of a document of `environment`: none for a live one. */
export function markingOf(
  environment: Environment,
  wording: DocumentWording,
): Marking | null {
  switch (environment) {
    case "live":
      return null;
    // Localized only, as docs/api.md, The demo, lists it.
    case "demo":
      return { word: "DEMO", notValid: wording.own.notValid };
    // A test document may be printed and shown: the same Spanish words in
    // every locale, which any inspector reads.
    case "test":
      return { word: "PRUEBAS", notValid: CATALOGS.es.notValid };
  }
}

const LOGO_SIZE = 34;
const GAP = 10;
const WATERMARK_SIZE = 150;
/**
 * The QR code in the header of pages 2 and after: 68 pt is 24 mm, three
 * pixels a module at 150 dpi for a link's 49 modules, quiet zone included.
 * Page 1 prints it larger, beside the key facts.
 */
const HEADER_QR_SIZE = 68;
/** As tall as the header's QR code, which holds its four lines of text. */
const HEADER_HEIGHT = HEADER_QR_SIZE;
const TOP = PAGE.height - PAGE.margin;
const TEXT_LEFT = PAGE.margin + LOGO_SIZE + GAP;

/** The QR code of the header of pages 2 and after, at the top right corner. */
export const HEADER_QR: QrSquare = {
  x: PAGE.width - PAGE.margin - HEADER_QR_SIZE,
  top: TOP,
  size: HEADER_QR_SIZE,
};

/** The width of the header's text, left of its QR code. */
const TEXT_WIDTH = HEADER_QR.x - GAP - TEXT_LEFT;

/** What every page of one document repeats. */
export interface PageFrame {
  wording: DocumentWording;
  styles: TextStyles;
  uuid: string;
  reference: string | null;
  qrUrl: string;
  marking: Marking | null;
  /** The seal's name, which page 1 prints under its footer. */
  sealName: string;
  /** The document identifier, under the titles. */
  identity: Line[];
  /** The reference, under the identifier on pages 2 and after. */
  headerReference: Line[];
  /** The legal basis, which closes every page. */
  footer: Line[];
  /** Page 1's line naming the seal, in the bottom margin: it takes no room from the content. */
  sealLine: Line[];
}

export function pageFrame(
  frame: Omit<
    PageFrame,
    "footer" | "identity" | "headerReference" | "sealLine"
  >,
): PageFrame {
  const { printed } = frame.wording;
  const { small } = frame.styles;
  return {
    ...frame,
    // Two lines at most for the identifier, one for the reference: the
    // header's height is the same on every page.
    identity: clippedLines(
      `${printed.documentId}: ${frame.uuid}`,
      small,
      TEXT_WIDTH,
      2,
    ),
    headerReference: clippedLines(
      `${printed.reference}: ${frame.reference ?? NOT_GIVEN}`,
      small,
      TEXT_WIDTH,
      1,
    ),
    footer: wrappedLines(printed.legalBasis, small, CONTENT_WIDTH),
    sealLine: clippedLines(
      `${printed.seal}: ${frame.sealName}`,
      small,
      CONTENT_WIDTH,
      1,
    ),
  };
}

/** Where the content of every page starts: below the header. */
export const CONTENT_TOP = TOP - HEADER_HEIGHT - GAP;

/** Where the content of a page goes: between the header and the footer. */
export const contentArea = (frame: PageFrame): ContentArea => ({
  top: CONTENT_TOP,
  bottom: PAGE.margin + heightOf(frame.footer) + GAP,
});

/**
 * Header (logo, title with the Spanish title under it, the marking's "not
 * valid", uuid, page number with the marking's word under it and, after
 * page 1, the reference and the QR code), footer (legal basis) and the
 * marking's word across the page, which goes first so that the content
 * prints over it.
 */
export function drawPageFrame(
  canvas: PageCanvas,
  frame: PageFrame,
  pageNumber: number,
  pageCount: number,
): void {
  const { page } = canvas;
  const { styles } = frame;
  const { own, spanish, printed } = frame.wording;
  const { marking } = frame;
  if (marking) drawWatermark(page, marking.word);

  const top = TOP;
  const left = PAGE.margin;
  // Page 1 prints the QR code under the header, larger.
  const right = pageNumber === 1 ? PAGE.width - PAGE.margin : HEADER_QR.x - GAP;
  drawLogo(page, left, top, LOGO_SIZE);
  if (pageNumber > 1) canvas.qrCode(frame.qrUrl, HEADER_QR);

  const textLeft = TEXT_LEFT;
  const title = own.title;
  let bottom = top - styles.title.leading;
  canvas.text(title, styles.title, textLeft, bottom);
  // Under the title rather than beside it: both would not fit with the page number.
  if (spanish && spanish.title !== title) {
    bottom -= styles.label.leading;
    canvas.text(spanish.title, styles.label, textLeft, bottom);
  }
  if (marking) {
    drawNotValid(
      canvas,
      marking.notValid,
      styles.notValid,
      textLeft + widthIn(title, styles.title) + GAP,
      top,
    );
  }
  // Page 1 prints the reference once, whole, under the key facts.
  const identity =
    pageNumber === 1
      ? frame.identity
      : [...frame.identity, ...frame.headerReference];
  drawLines(canvas, identity, { x: textLeft, width: TEXT_WIDTH }, bottom);

  const pageLabel = `${printed.page} ${pageNumber}/${pageCount}`;
  canvas.text(
    pageLabel,
    styles.pageNumber,
    right - widthIn(pageLabel, styles.pageNumber),
    top - styles.pageNumber.leading,
  );

  if (marking) {
    // Also level with the text, where every reader and extractor finds it.
    canvas.text(
      marking.word,
      styles.notValid,
      right - widthIn(marking.word, styles.notValid),
      top - styles.pageNumber.leading - styles.notValid.leading,
    );
  }

  const ruleY = top - HEADER_HEIGHT - GAP / 2;
  page.drawLine({
    start: { x: left, y: ruleY },
    end: { x: PAGE.width - PAGE.margin, y: ruleY },
    thickness: 0.8,
    color: COLORS.rule,
  });

  const footerTop = PAGE.margin + heightOf(frame.footer);
  page.drawLine({
    start: { x: left, y: footerTop + 4 },
    end: { x: right, y: footerTop + 4 },
    thickness: 0.5,
    color: COLORS.rule,
  });
  drawLines(canvas, frame.footer, { x: left, width: CONTENT_WIDTH }, footerTop);
  if (pageNumber === 1) {
    drawLines(
      canvas,
      frame.sealLine,
      { x: left, width: CONTENT_WIDTH },
      PAGE.margin - 2,
    );
  }
}

/** The "not valid" mark, boxed in red, its top-left corner at (x, top). */
function drawNotValid(
  canvas: PageCanvas,
  text: string,
  style: TextStyle,
  x: number,
  top: number,
): void {
  const padding = 5;
  const height = style.leading + 2;
  canvas.page.drawRectangle({
    x,
    y: top - height - 1,
    width: widthIn(text, style) + 2 * padding,
    height,
    rx: 3,
    ry: 3,
    borderColor: COLORS.warning,
    borderWidth: 1.2,
  });
  canvas.text(text, style, x + padding, top - height);
}

/**
 * `word` across the page, along its diagonal from bottom left to top right.
 * Drawn as shapes: extracted diagonal text would scatter its letters through
 * the document's text (the header carries the word as text).
 */
function drawWatermark(page: PDFPage, word: string): void {
  const { path, width } = boldOutline(word, WATERMARK_SIZE);
  const angle = Math.atan2(PAGE.height, PAGE.width);
  const capHeight = WATERMARK_SIZE * 0.71;
  // Start the baseline so that the word's centre lands on the page's centre.
  const x =
    PAGE.width / 2 -
    (width / 2) * Math.cos(angle) +
    (capHeight / 2) * Math.sin(angle);
  const y =
    PAGE.height / 2 -
    (width / 2) * Math.sin(angle) -
    (capHeight / 2) * Math.cos(angle);
  page.drawSvgPath(path, {
    x,
    y,
    rotate: degrees((angle * 180) / Math.PI),
    color: COLORS.watermark,
  });
}
