// The file's lexical frame, which MuPDF forgives silently but qpdf --check
// does not: every top-level object made of valid tokens and closed by
// `endobj`, every stream exactly its /Length and closed by `endstream`,
// nothing between objects, a classic cross-reference table of well-formed
// entries, each revision ending with `startxref`, the offset of its
// cross-reference section, and `%%EOF`.
import type { PDFDocument } from "mupdf";

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);

// The tokens that objects are made of (PDF 32000-1, 7.2 and 7.3), each ended
// by whitespace or a delimiter; a literal string may nest one level of
// balanced parentheses, as pdf-lib writes them.
const END = String.raw`(?=[\0\t\n\f\r ()<>[\]{}/%]|$)`;
const LITERAL = String.raw`(?:[^()\\]|\\[\s\S])`;
const OBJECT_TOKEN = new RegExp(
  [
    String.raw`[\0\t\n\f\r ]+`,
    "%[^\\r\\n]*",
    "<<",
    ">>",
    String.raw`[[\]]`,
    String.raw`/[^\0\t\n\f\r ()<>[\]{}/%]*`,
    String.raw`\((?:${LITERAL}|\(${LITERAL}*\))*\)`,
    String.raw`<[0-9A-Fa-f\0\t\n\f\r ]*>`,
    String.raw`[+-]?(?:\d+\.?\d*|\.\d+)${END}`,
    `(?:true|false|null|R)${END}`,
  ].join("|"),
  "y",
);

/** Whether `text` from `start` to `end` is made of object tokens alone. */
function onlyObjectTokens(text: string, start: number, end: number): boolean {
  const body = text.slice(start, end);
  OBJECT_TOKEN.lastIndex = 0;
  while (OBJECT_TOKEN.lastIndex < body.length) {
    if (!OBJECT_TOKEN.exec(body)) return false;
  }
  return true;
}

/** The first fault found walking the file from its header to its end, if any. */
export function framingFault(
  bytes: Uint8Array,
  document: PDFDocument,
): string | undefined {
  const text = Buffer.from(
    bytes.buffer,
    bytes.byteOffset,
    bytes.byteLength,
  ).toString("latin1");
  let position = 0;

  const skipWhitespaceAndComments = () => {
    while (position < bytes.length) {
      if (WHITESPACE.has(bytes[position] ?? 0)) position++;
      else if (text[position] === "%" && !text.startsWith("%%EOF", position)) {
        while (position < bytes.length && !/[\r\n]/.test(text[position] ?? ""))
          position++;
      } else return;
    }
  };
  /** Consumes `pattern` (sticky) at the current position, or returns null. */
  const take = (pattern: RegExp): RegExpExecArray | null => {
    pattern.lastIndex = position;
    const match = pattern.exec(text);
    if (match) position = pattern.lastIndex;
    return match;
  };

  if (!take(/%PDF-\d\.\d/y)) return "no %PDF- header";
  let crossReferenceAt = -1;
  for (;;) {
    skipWhitespaceAndComments();
    if (position >= bytes.length) return undefined;
    const objectAt = position;
    const header = take(/(\d+)[\0\t\n\f\r ]+(\d+)[\0\t\n\f\r ]+obj\b/y);
    if (header) {
      const object = document.newIndirect(Number(header[1])).resolve();
      // MuPDF reads a cross-reference stream as the trailer, not as an object.
      if (object.get("Type").asName() === "XRef") crossReferenceAt = objectAt;
      // A dictionary holds neither keyword: whichever comes first says what follows.
      const body = /\bstream(\r\n|\n)|\bendobj\b/g;
      body.lastIndex = position;
      const next = body.exec(text);
      if (!next) return `object ${header[1]} at ${objectAt}: no endobj`;
      if (!onlyObjectTokens(text, position, next.index)) {
        return `object ${header[1]} at ${objectAt}: an unknown token`;
      }
      position = next.index;
      if (take(/stream(\r\n|\n)/y)) {
        position += object.get("Length").asNumber();
        if (!take(/(\r\n|\n|\r)?endstream\b/y)) {
          return `object ${header[1]} at ${objectAt}: its stream is not its /Length`;
        }
      }
      skipWhitespaceAndComments();
      if (!take(/endobj\b/y)) {
        return `object ${header[1]} at ${objectAt}: expected endobj`;
      }
    } else if (take(/xref\b/y)) {
      crossReferenceAt = objectAt;
      // Subsections of fixed 20-byte entries, then the trailer dictionary.
      for (;;) {
        const subsection = take(/[\r\n]*\d+ (\d+)(\r\n|\r|\n)/y);
        if (!subsection) break;
        const entries = `(\\d{10} \\d{5} [fn](\\r\\n| \\r| \\n)){${subsection[1]}}`;
        if (!take(new RegExp(entries, "y"))) {
          return `cross-reference table at ${objectAt}: an ill-formed entry`;
        }
      }
      if (!take(/[\r\n ]*trailer\b/y)) {
        return `cross-reference table at ${objectAt}: no trailer`;
      }
      const trailerEnd = text.indexOf("startxref", position);
      if (trailerEnd < 0 || !onlyObjectTokens(text, position, trailerEnd)) {
        return "trailer: an unknown token";
      }
      position = trailerEnd;
    } else {
      const revisionEnd = take(
        /startxref[\0\t\n\f\r ]+(\d+)[\0\t\n\f\r ]+%%EOF/y,
      );
      if (!revisionEnd) return `unexpected bytes at offset ${objectAt}`;
      if (Number(revisionEnd[1]) !== crossReferenceAt) {
        return `startxref ${revisionEnd[1]} is not the cross-reference section at ${crossReferenceAt}`;
      }
    }
  }
}
