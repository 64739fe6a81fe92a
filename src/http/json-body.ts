import { DomainError } from "../errors";

const JSON_MEDIA_TYPE = "application/json";

export const tooLarge = (maxBytes: number): DomainError =>
  new DomainError("PAYLOAD_TOO_LARGE", { maxBytes });

function isJsonMediaType(contentType: string | null): boolean {
  const mediaType = contentType?.split(";", 1)[0]?.trim().toLowerCase();
  return mediaType === JSON_MEDIA_TYPE;
}

/**
 * Reads the request body as a JSON object, checking in the contract's order:
 * media type (415), size while reading (413, whatever `Content-Length` says),
 * then syntax (400). A refused body is cancelled, never left half-read, so
 * that the connection stays usable for the next request.
 */
export async function readJsonObject(
  request: Request,
  maxBytes: number,
): Promise<Record<string, unknown>> {
  const body = request.body;
  if (body && !isJsonMediaType(request.headers.get("Content-Type"))) {
    await body.cancel();
    throw new DomainError("UNSUPPORTED_MEDIA_TYPE");
  }
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (body && declared > maxBytes) {
    await body.cancel();
    throw tooLarge(maxBytes);
  }

  const bytes = body ? await readAtMost(body, maxBytes) : new Uint8Array();
  let text: string;
  let value: unknown;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
      bytes,
    );
    value = JSON.parse(text);
  } catch {
    throw new DomainError("MALFORMED_JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new DomainError("MALFORMED_JSON");
  }
  return value as Record<string, unknown>;
}

/** The bytes of `stream`, 413 as soon as they pass `maxBytes` (the rest cancelled). */
export async function readAtMost(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
