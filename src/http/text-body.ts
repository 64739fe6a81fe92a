import { DomainError } from "../errors";
import { readAtMost, tooLarge } from "./json-body";

/** `text/plain`, in UTF-8 when it names a charset at all. */
function isPlainUtf8Text(contentType: string | null): boolean {
  const [mediaType, ...parameters] = (contentType ?? "")
    .split(";")
    .map((part) => part.trim().toLowerCase());
  return (
    mediaType === "text/plain" &&
    parameters.every(
      (parameter) =>
        !parameter.startsWith("charset=") ||
        ["charset=utf-8", 'charset="utf-8"'].includes(parameter),
    )
  );
}

/**
 * Reads a `text/plain` body (a gate's follow-up), in the order of a JSON
 * body's checks: media type (415 FOLLOW_UP_NOT_TEXT), size while reading
 * (413), then the text itself (400 INVALID_FOLLOW_UP: empty, or not UTF-8).
 */
export async function readPlainText(
  request: Request,
  maxBytes: number,
): Promise<string> {
  const body = request.body;
  if (!isPlainUtf8Text(request.headers.get("Content-Type"))) {
    await body?.cancel();
    throw new DomainError("FOLLOW_UP_NOT_TEXT");
  }
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (body && declared > maxBytes) {
    await body.cancel();
    throw tooLarge(maxBytes);
  }
  const bytes = body ? await readAtMost(body, maxBytes) : new Uint8Array();
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
      bytes,
    );
  } catch {
    throw new DomainError("INVALID_FOLLOW_UP");
  }
  if (text.trim() === "") throw new DomainError("INVALID_FOLLOW_UP");
  return text;
}
