import { DomainError } from "../errors";
import { readAtMost, tooLarge } from "./json-body";

// The charsets a follow-up may name. The reference gate (Spring) sends
// ISO-8859-1 and names none; as browsers do (WHATWG Encoding), every
// Latin-1 label is read as windows-1252, its superset.
const UTF8 = "utf-8";
const WINDOWS_1252 = "windows-1252";
const CHARSETS: Readonly<Record<string, string>> = {
  [UTF8]: UTF8,
  "iso-8859-1": WINDOWS_1252,
  latin1: WINDOWS_1252,
  [WINDOWS_1252]: WINDOWS_1252,
  cp1252: WINDOWS_1252,
};

/**
 * The encoding of a `text/plain` body: its charset's, null when it names
 * none; undefined when it is not `text/plain` or names another charset.
 */
function plainTextEncoding(
  contentType: string | null,
): string | null | undefined {
  const [mediaType, ...parameters] = (contentType ?? "")
    .split(";")
    .map((part) => part.trim().toLowerCase());
  if (mediaType !== "text/plain") return undefined;
  const charset = parameters
    .find((parameter) => parameter.startsWith("charset="))
    ?.slice("charset=".length)
    .replace(/^"(.*)"$/, "$1");
  return charset === undefined ? null : CHARSETS[charset];
}

/** `bytes` as text: strictly UTF-8, else windows-1252 when no charset was named. */
function decoded(bytes: Uint8Array, encoding: string | null): string {
  try {
    return new TextDecoder(encoding ?? UTF8, {
      fatal: true,
      ignoreBOM: false,
    }).decode(bytes);
  } catch {
    if (encoding !== null) throw new DomainError("INVALID_FOLLOW_UP");
    return new TextDecoder(WINDOWS_1252).decode(bytes);
  }
}

/**
 * Reads a `text/plain` body (a gate's follow-up), in the order of a JSON
 * body's checks: media type and charset (415 FOLLOW_UP_NOT_TEXT), size
 * while reading (413), then the text itself (400 INVALID_FOLLOW_UP: empty,
 * or not UTF-8 when it says it is). Without a charset, UTF-8 when the bytes
 * are valid UTF-8, windows-1252 otherwise.
 */
export async function readPlainText(
  request: Request,
  maxBytes: number,
): Promise<string> {
  const body = request.body;
  const encoding = plainTextEncoding(request.headers.get("Content-Type"));
  if (encoding === undefined) {
    await body?.cancel();
    throw new DomainError("FOLLOW_UP_NOT_TEXT");
  }
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (body && declared > maxBytes) {
    await body.cancel();
    throw tooLarge(maxBytes);
  }
  const bytes = body ? await readAtMost(body, maxBytes) : new Uint8Array();
  const text = decoded(bytes, encoding);
  if (text.trim() === "") throw new DomainError("INVALID_FOLLOW_UP");
  return text;
}
