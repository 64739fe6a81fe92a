// The demo's limits count a caller by the network it holds, not by one of
// its addresses (docs/api.md, The demo): an IPv4 address is scarce, so it
// counts alone; an IPv6 subscriber usually gets a /64 (2^64 addresses,
// changed at will), so one address of it would be a new caller per request.

const IPV4 =
  /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const GROUP = /^[0-9a-f]{1,4}$/;

/** The eight 16-bit groups of an IPv6 address (an IPv4 tail included), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  const tailAt = text.lastIndexOf(":") + 1;
  const tail = text.slice(tailAt);
  if (tailAt > 0 && IPV4.test(tail)) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split(".").map(Number);
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

/**
 * The network the demo's limits count `ip` in: an IPv4 address itself (an
 * IPv4-mapped IPv6 one, `::ffff:a.b.c.d`, too), an IPv6 address's /64 in one
 * spelling whatever the written form; anything else (no address at all:
 * "unknown") as it is.
 */
export function demoNetwork(ip: string): string {
  if (IPV4.test(ip)) return ip;
  const groups = ipv6Groups(ip);
  if (!groups) return ip;
  const [high = 0, low = 0] = groups.slice(6);
  if (
    groups.slice(0, 5).every((group) => group === 0) &&
    groups[5] === 0xffff
  ) {
    return [high >> 8, high & 255, low >> 8, low & 255].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}
