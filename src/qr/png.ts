import { concatBytes } from "../bytes";
import { type QrSymbol, qrSymbol } from "./symbol";

/** The smallest side of the image, quiet zone included: sharp on any phone screen. */
export const MIN_PNG_SIDE = 600;

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * The QR code of `text` as a 1-bit greyscale PNG at least MIN_PNG_SIDE pixels
 * square, each module a whole number of pixels so that its edges stay
 * crisp. Built with the platform's CompressionStream (the zlib stream PNG's
 * IDAT holds), so it runs in workerd without Node's zlib.
 */
export async function qrPng(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const symbol = qrSymbol(text);
  const scale = Math.ceil(MIN_PNG_SIDE / symbol.modules);
  const side = symbol.modules * scale;
  const header = new DataView(new ArrayBuffer(13));
  header.setUint32(0, side);
  header.setUint32(4, side);
  header.setUint8(8, 1); // bit depth: one bit a pixel
  header.setUint8(9, 0); // colour type: greyscale, 0 black and 1 white
  return concatBytes([
    new Uint8Array(SIGNATURE),
    chunk("IHDR", new Uint8Array(header.buffer)),
    chunk("IDAT", await zlib(scanlines(symbol, scale))),
    chunk("IEND", new Uint8Array(0)),
  ]);
}

/**
 * The image's rows as PNG scanlines: a filter byte (0, none) then one bit a
 * pixel, white set. Each module row is painted into its first pixel row,
 * which the next `scale - 1` rows copy.
 */
function scanlines(
  { runs, modules }: QrSymbol,
  scale: number,
): Uint8Array<ArrayBuffer> {
  const side = modules * scale;
  const rowBytes = 1 + Math.ceil(side / 8);
  const rows = new Uint8Array(rowBytes * side);
  for (let y = 0; y < side; y++) {
    rows.fill(0xff, y * rowBytes + 1, (y + 1) * rowBytes);
  }
  for (const run of runs) {
    const row = run.y * scale * rowBytes + 1;
    for (let x = run.x * scale; x < (run.x + run.length) * scale; x++) {
      const at = row + (x >> 3);
      rows[at] = (rows[at] as number) & ~(0x80 >> (x & 7));
    }
  }
  for (let moduleRow = 0; moduleRow < modules; moduleRow++) {
    const first = moduleRow * scale * rowBytes;
    const painted = rows.subarray(first, first + rowBytes);
    for (let copy = 1; copy < scale; copy++) {
      rows.set(painted, first + copy * rowBytes);
    }
  }
  return rows;
}

/** A zlib stream (RFC 1950), as IDAT holds: CompressionStream's "deflate". */
async function zlib(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const compressed = new Blob([bytes])
    .stream()
    .pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(compressed).arrayBuffer());
}

/** A PNG chunk: length, type, data, and the CRC-32 of type and data. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(12 + data.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, data.length);
  bytes.set(new TextEncoder().encode(type), 4);
  bytes.set(data, 8);
  view.setUint32(8 + data.length, crc32(bytes.subarray(4, 8 + data.length)));
  return bytes;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let bit = 0; bit < 8; bit++) {
    c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return c >>> 0;
});

/** CRC-32 as PNG (ISO 3309) defines it. */
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}
