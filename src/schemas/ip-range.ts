// IP addresses and CIDR ranges, as the allow-lists read them
// (GATE_ALLOWED_IPS, OPS_ALLOWED_IPS): an address is compared by its bytes,
// so that every spelling of an IPv6 address is the same address.

const IPV4 =
  /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const GROUP = /^[0-9a-f]{1,4}$/;

/** The four bytes of a dotted-decimal IPv4 address, or null. */
export function ipv4Bytes(address: string): number[] | null {
  return IPV4.test(address) ? address.split(".").map(Number) : null;
}

/** The eight 16-bit groups of an IPv6 address (an IPv4 tail included), or null. */
export function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  const tailAt = text.lastIndexOf(":") + 1;
  const tail = tailAt > 0 ? ipv4Bytes(text.slice(tailAt)) : null;
  if (tail) {
    const [a = 0, b = 0, c = 0, d = 0] = tail;
    text = `${text.slice(0, tailAt)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const [head = [], rest = []] = halves.map((half) =>
    half === "" ? [] : half.split(":"),
  );
  const written = [...head, ...rest];
  if (!written.every((group) => GROUP.test(group))) return null;
  const missing = 8 - written.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  return [...head, ...Array(missing).fill("0"), ...rest].map((group) =>
    Number.parseInt(group, 16),
  );
}

/** The bytes of an IPv4 (4) or IPv6 (16) address, or null. */
function ipBytes(address: string): number[] | null {
  return (
    ipv4Bytes(address) ??
    ipv6Groups(address)?.flatMap((group) => [group >> 8, group & 0xff]) ??
    null
  );
}

/** An address, or a network of `prefix` bits: `203.0.113.0/24`, `2001:db8::/32`. */
export interface IpRange {
  bytes: readonly number[];
  prefix: number;
}

/** `text` as a range (an address alone: its bytes' every bit), or null. */
export function ipRange(text: string): IpRange | null {
  const [address = "", prefix, ...more] = text.split("/");
  const bytes = ipBytes(address);
  if (!bytes || more.length > 0) return null;
  const bits = bytes.length * 8;
  if (prefix === undefined) return { bytes, prefix: bits };
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits) return null;
  return { bytes, prefix: Number(prefix) };
}

/** Whether the address `ip` is in one of `ranges` (an address of the other family never is). */
export function inIpRanges(ranges: readonly IpRange[], ip: string): boolean {
  const bytes = ipBytes(ip);
  return (
    bytes !== null &&
    ranges.some(
      (range) =>
        range.bytes.length === bytes.length &&
        Array.from({ length: range.prefix }).every((_, bit) => {
          const mask = 0x80 >> (bit % 8);
          const at = Math.floor(bit / 8);
          return ((bytes[at] ?? 0) & mask) === ((range.bytes[at] ?? 0) & mask);
        }),
    )
  );
}
