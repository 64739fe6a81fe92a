// The demo's limits count a caller by the network it holds, not by one of
// its addresses (docs/api.md, The demo): an IPv4 address is scarce, so it
// counts alone; an IPv6 subscriber usually gets a /64 (2^64 addresses,
// changed at will), so one address of it would be a new caller per request.

import { ipv4Bytes, ipv6Groups } from "../../schemas/ip-range";

/**
 * The network the demo's limits count `ip` in: an IPv4 address itself (an
 * IPv4-mapped IPv6 one, `::ffff:a.b.c.d`, too), an IPv6 address's /64 in one
 * spelling whatever the written form; anything else (no address at all:
 * "unknown") as it is.
 */
export function demoNetwork(ip: string): string {
  if (ipv4Bytes(ip)) return ip;
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
