// DER (X.690), as much as the seal's CMS, its certificates and RFC 3161
// timestamps need: writing a value from its parts, and reading the
// elements of a value without copying it.

import { concatBytes } from "../bytes";

const lengthOf = (length: number): number[] => {
  if (length < 0x80) return [length];
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) {
    bytes.unshift(rest % 256);
  }
  return [0x80 | bytes.length, ...bytes];
};

/** One element: its tag, then the length of its contents, then them. */
export const element = (tag: number, ...contents: Uint8Array[]): Uint8Array => {
  const body = concatBytes(contents);
  return concatBytes([new Uint8Array([tag, ...lengthOf(body.length)]), body]);
};

export const sequence = (...items: Uint8Array[]): Uint8Array =>
  element(0x30, ...items);

/** A SET OF in DER's order: its elements sorted by their encodings. */
export const setOf = (...items: Uint8Array[]): Uint8Array =>
  element(0x31, ...[...items].sort(compareBytes));

/** [n] EXPLICIT, or an IMPLICIT constructed [n]: the contents are the same. */
export const contextTag = (n: number, ...contents: Uint8Array[]): Uint8Array =>
  element(0xa0 | n, ...contents);

export const octetString = (bytes: Uint8Array): Uint8Array =>
  element(0x04, bytes);

export const NULL = new Uint8Array([0x05, 0x00]);

export const boolean = (value: boolean): Uint8Array =>
  new Uint8Array([0x01, 0x01, value ? 0xff : 0x00]);

/** A non-negative INTEGER from its big-endian magnitude. */
export const unsignedInteger = (magnitude: Uint8Array): Uint8Array => {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const trimmed = magnitude.subarray(start);
  const bytes =
    (trimmed[0] ?? 0) & 0x80
      ? concatBytes([new Uint8Array([0]), trimmed])
      : trimmed;
  return element(0x02, bytes.length === 0 ? new Uint8Array([0]) : bytes);
};

export const smallInteger = (value: number): Uint8Array =>
  unsignedInteger(new Uint8Array([value]));

export const objectIdentifier = (dotted: string): Uint8Array => {
  const [first = 0, second = 0, ...rest] = dotted.split(".").map(Number);
  const bytes: number[] = [];
  for (const arc of [first * 40 + second, ...rest]) {
    const groups = [arc & 0x7f];
    for (
      let value = Math.floor(arc / 128);
      value > 0;
      value = Math.floor(value / 128)
    ) {
      groups.unshift(0x80 | (value & 0x7f));
    }
    bytes.push(...groups);
  }
  return element(0x06, new Uint8Array(bytes));
};

export const utf8String = (text: string): Uint8Array =>
  element(0x0c, new TextEncoder().encode(text));

export const printableString = (text: string): Uint8Array =>
  element(0x13, new TextEncoder().encode(text));

const twoDigits = (n: number) => String(n).padStart(2, "0");

/** UTCTime before 2050, GeneralizedTime from it on (RFC 5280 4.1.2.5), to the second. */
export const certificateTime = (epochMs: number): Uint8Array => {
  const date = new Date(epochMs);
  const year = date.getUTCFullYear();
  const rest = [
    date.getUTCMonth() + 1,
    date.getUTCDate(),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
  ]
    .map(twoDigits)
    .join("");
  return year < 2050
    ? element(
        0x17,
        new TextEncoder().encode(`${twoDigits(year % 100)}${rest}Z`),
      )
    : element(0x18, new TextEncoder().encode(`${year}${rest}Z`));
};

export const bitString = (bytes: Uint8Array): Uint8Array =>
  element(0x03, new Uint8Array([0]), bytes);

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return a.length - b.length;
}

/** An element read in place: `bytes` is its whole encoding, `contents` what follows its length. */
export interface Element {
  tag: number;
  bytes: Uint8Array;
  contents: Uint8Array;
}

/** The element that starts at `offset` of `data`; throws on a truncated or indefinite length. */
export function readElement(data: Uint8Array, offset = 0): Element {
  const tag = data[offset];
  let length = data[offset + 1];
  if (tag === undefined || length === undefined)
    throw new Error("DER: truncated");
  let header = 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4) throw new Error("DER: unsupported length");
    length = 0;
    for (let i = 0; i < count; i++)
      length = length * 256 + (data[offset + 2 + i] ?? 0);
    header += count;
  }
  const end = offset + header + length;
  if (end > data.length) throw new Error("DER: truncated");
  return {
    tag,
    bytes: data.subarray(offset, end),
    contents: data.subarray(offset + header, end),
  };
}

/** The elements inside a constructed element, in order. */
export function childrenOf(parent: Element): Element[] {
  const children: Element[] = [];
  for (let at = 0; at < parent.contents.length; ) {
    const child = readElement(parent.contents, at);
    children.push(child);
    at += child.bytes.length;
  }
  return children;
}

/** The dotted form of an OBJECT IDENTIFIER's contents. */
export function dottedOid(contents: Uint8Array): string {
  const arcs: number[] = [];
  let value = 0;
  for (const byte of contents) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      arcs.push(value);
      value = 0;
    }
  }
  const [first = 0, ...rest] = arcs;
  const head =
    first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  return [...head, ...rest].join(".");
}
