// The OFL forbids a modified font (a cut is one) to carry a Reserved Font
// Name: this gives a TrueType file a name table of its own, keeping the
// copyright, version and licence records of the original.

/** Records kept from the original, by name id, as fontkit names them. */
const KEPT_RECORDS = {
  0: "copyright",
  5: "version",
  13: "license",
  14: "licenseURL",
} as const;

/** A name table (format 0) of Windows Unicode BMP records, sorted by name id. */
function nameTable(records: ReadonlyMap<number, string>): Uint8Array {
  const ids = [...records.keys()].sort((a, b) => a - b);
  const strings = ids.map((id) => {
    const text = records.get(id) ?? "";
    const bytes = new Uint8Array(text.length * 2);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < text.length; i++)
      view.setUint16(2 * i, text.charCodeAt(i));
    return bytes;
  });
  const header = 6 + 12 * ids.length;
  const size = strings.reduce((sum, bytes) => sum + bytes.length, header);
  const table = new Uint8Array(size);
  const view = new DataView(table.buffer);
  view.setUint16(2, ids.length);
  view.setUint16(4, header);
  let offset = 0;
  ids.forEach((id, index) => {
    const record = 6 + 12 * index;
    const bytes = strings[index] ?? new Uint8Array();
    view.setUint16(record, 3); // Windows
    view.setUint16(record + 2, 1); // Unicode BMP
    view.setUint16(record + 4, 0x409); // English
    view.setUint16(record + 6, id);
    view.setUint16(record + 8, bytes.length);
    view.setUint16(record + 10, offset);
    table.set(bytes, header + offset);
    offset += bytes.length;
  });
  return table;
}

function checksum(bytes: Uint8Array): number {
  const padded = new Uint8Array(Math.ceil(bytes.length / 4) * 4);
  padded.set(bytes);
  const view = new DataView(padded.buffer);
  let sum = 0;
  for (let i = 0; i < padded.length; i += 4)
    sum = (sum + view.getUint32(i)) >>> 0;
  return sum;
}

/** `font` (TrueType, cut from `original`) named `name`. */
export function renameFont(
  font: Uint8Array,
  name: string,
  original: { getName(key: string): string | null },
): Uint8Array {
  const source = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const count = source.getUint16(4);
  const records = new Map(
    Object.entries(KEPT_RECORDS).flatMap(([id, key]) => {
      const text = original.getName(key);
      return text ? [[Number(id), text] as const] : [];
    }),
  );
  for (const id of [1, 3, 4, 6]) records.set(id, name);
  records.set(2, "Regular");
  const tables = Array.from({ length: count }, (_, index) => {
    const record = 12 + 16 * index;
    const tag = String.fromCharCode(...font.subarray(record, record + 4));
    const offset = source.getUint32(record + 8);
    const bytes =
      tag === "name"
        ? nameTable(records)
        : font.slice(offset, offset + source.getUint32(record + 12));
    return { tag, bytes };
  });
  const header = 12 + 16 * count;
  const size = tables.reduce(
    (sum, { bytes }) => sum + Math.ceil(bytes.length / 4) * 4,
    header,
  );
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set(font.subarray(0, 12));
  let offset = header;
  let headOffset = 0;
  tables.forEach(({ tag, bytes }, index) => {
    const record = 12 + 16 * index;
    if (tag === "head") {
      headOffset = offset;
      bytes.fill(0, 8, 12); // checkSumAdjustment, computed last
    }
    out.set(font.subarray(record, record + 4), record);
    view.setUint32(record + 4, checksum(bytes));
    view.setUint32(record + 8, offset);
    view.setUint32(record + 12, bytes.length);
    out.set(bytes, offset);
    offset += Math.ceil(bytes.length / 4) * 4;
  });
  view.setUint32(headOffset + 8, (0xb1b0afba - checksum(out)) >>> 0);
  return out;
}
