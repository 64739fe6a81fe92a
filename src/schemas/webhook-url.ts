import type { ValidationCode } from "../errors";

// Where a webhook endpoint may point (docs/api.md, Webhook endpoints): the
// service POSTs there from its own network, so an address that names a
// machine of that network, or no machine at all, is refused, whatever the
// deployment. Outside production a receiver on the developer's machine must
// work: there http:// and loopback hosts are allowed.

/** The most characters a webhook URL may have. */
export const WEBHOOK_URL_MAX_LENGTH = 2048;

/** What the deployment allows beyond https:// to public hosts. */
export interface WebhookUrlPolicy {
  /** Outside production: `http://`, and loopback hosts (127.0.0.0/8, ::1, localhost). */
  allowLoopbackHttp: boolean;
}

/** Why a URL is refused, in the contract's words. */
export interface WebhookUrlRefusal {
  code: Extract<ValidationCode, "INVALID_FORMAT" | "INVALID_VALUE">;
  message: string;
}

/** An address range a webhook may not point into, and what it is. */
interface Range {
  kind: string;
  cidr: string;
}

const LOOPBACK = "loopback";

// IPv4 ranges as [first octets, prefix length].
const IPV4_RANGES: readonly [number[], number, Range][] = [
  [[0], 8, { kind: "unspecified", cidr: "0.0.0.0/8" }],
  [[10], 8, { kind: "private", cidr: "10.0.0.0/8" }],
  [[100, 64], 10, { kind: "shared", cidr: "100.64.0.0/10" }],
  [[127], 8, { kind: LOOPBACK, cidr: "127.0.0.0/8" }],
  [[169, 254], 16, { kind: "link-local", cidr: "169.254.0.0/16" }],
  [[172, 16], 12, { kind: "private", cidr: "172.16.0.0/12" }],
  [[192, 168], 16, { kind: "private", cidr: "192.168.0.0/16" }],
  [[224], 4, { kind: "multicast", cidr: "224.0.0.0/4" }],
  [[240], 4, { kind: "reserved", cidr: "240.0.0.0/4" }],
];

/** Whether `bytes` start with the `prefix` bits of `network`. */
function inPrefix(bytes: number[], network: number[], prefix: number) {
  for (let bit = 0; bit < prefix; bit++) {
    const mask = 0x80 >> (bit % 8);
    const index = Math.floor(bit / 8);
    if (((bytes[index] ?? 0) & mask) !== ((network[index] ?? 0) & mask)) {
      return false;
    }
  }
  return true;
}

/** The first of `ranges` that holds the address `bytes`, or null. */
const rangeOf = (
  ranges: readonly [number[], number, Range][],
  bytes: number[],
): Range | null =>
  ranges.find(([network, prefix]) => inPrefix(bytes, network, prefix))?.[2] ??
  null;

/** The 16 bytes of an IPv6 address as the URL parser writes it (hex groups, `::` at most once). */
function ipv6Bytes(address: string): number[] {
  const [head = "", tail] = address.split("::");
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const [before, after] = [groups(head), groups(tail ?? "")];
  const zeros =
    tail === undefined ? [] : Array(8 - before.length - after.length).fill("0");
  return [...before, ...zeros, ...after].flatMap((group) => {
    const value = Number.parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}

// IPv6 ranges refused whole, as [first bytes, prefix length]; looked up
// before the embeddings, so that `::` and `::1` are not read as IPv4.
const IPV6_RANGES: readonly [number[], number, Range][] = [
  [[], 128, { kind: "unspecified", cidr: "::/128" }],
  [[...Array(15).fill(0), 1], 128, { kind: LOOPBACK, cidr: "::1/128" }],
  [[0xfe, 0x80], 10, { kind: "link-local", cidr: "fe80::/10" }],
  [[0xfe, 0xc0], 10, { kind: "site-local", cidr: "fec0::/10" }],
  [[0xfc], 7, { kind: "unique-local", cidr: "fc00::/7" }],
  [[0xff], 8, { kind: "multicast", cidr: "ff00::/8" }],
  // Where its IPv4 address sits depends on the network's own prefix length
  // (RFC 6052, 8215), and it is never globally reachable.
  [
    [0, 0x64, 0xff, 0x9b, 0, 1],
    48,
    { kind: "local-use NAT64", cidr: "64:ff9b:1::/48" },
  ],
];

/** An IPv6 prefix that carries an IPv4 address, and where. */
interface Embedding {
  network: number[];
  prefix: number;
  /** The index of the IPv4 address's first byte. */
  ipv4At: number;
  /** Whether its bits are inverted (Teredo's client). */
  inverted?: true;
}

// The IPv4 address inside decides, as the translator or tunnel on the way
// would connect to it.
const IPV4_EMBEDDINGS: readonly Embedding[] = [
  // IPv4-mapped ::ffff:a.b.c.d
  { network: [...Array(10).fill(0), 0xff, 0xff], prefix: 96, ipv4At: 12 },
  // IPv4-compatible ::a.b.c.d
  { network: [], prefix: 96, ipv4At: 12 },
  // IPv4-translated ::ffff:0:a.b.c.d (RFC 2765)
  { network: [...Array(8).fill(0), 0xff, 0xff], prefix: 96, ipv4At: 12 },
  // NAT64's well-known prefix 64:ff9b::/96 (RFC 6052)
  { network: [0, 0x64, 0xff, 0x9b], prefix: 96, ipv4At: 12 },
  // 6to4 2002::/16
  { network: [0x20, 0x02], prefix: 16, ipv4At: 2 },
  // Teredo 2001::/32: its server, and its client
  { network: [0x20, 0x01, 0, 0], prefix: 32, ipv4At: 4 },
  { network: [0x20, 0x01, 0, 0], prefix: 32, ipv4At: 12, inverted: true },
];

function ipv6Range(bytes: number[]): Range | null {
  const whole = rangeOf(IPV6_RANGES, bytes);
  if (whole) return whole;
  for (const { network, prefix, ipv4At, inverted } of IPV4_EMBEDDINGS) {
    if (!inPrefix(bytes, network, prefix)) continue;
    const ipv4 = bytes
      .slice(ipv4At, ipv4At + 4)
      .map((byte) => (inverted ? byte ^ 0xff : byte));
    const range = rangeOf(IPV4_RANGES, ipv4);
    if (range) return range;
  }
  return null;
}

const IPV4_LITERAL = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * The forbidden range a URL's host names, or null for a public address or
 * a domain name. The URL parser has already turned every spelling of an
 * IPv4 address (`0x7f.1`, `2130706433`) into dotted decimal, and IPv6 into
 * hex groups, as the request that delivers would.
 */
function forbiddenRange(hostname: string): Range | null {
  if (hostname.startsWith("[")) {
    return ipv6Range(ipv6Bytes(hostname.slice(1, -1)));
  }
  const ipv4 = IPV4_LITERAL.exec(hostname);
  if (ipv4) return rangeOf(IPV4_RANGES, ipv4.slice(1).map(Number));
  const name = hostname.replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) {
    return { kind: LOOPBACK, cidr: "localhost" };
  }
  return null;
}

/** Why a webhook endpoint may not have `value` as its URL under `policy`, or null when it may. */
export function webhookUrlRefusal(
  value: string,
  policy: WebhookUrlPolicy,
): WebhookUrlRefusal | null {
  if (!URL.canParse(value)) {
    return {
      code: "INVALID_FORMAT",
      message: "Must be an absolute URL, such as https://example.com/webhooks.",
    };
  }
  const url = new URL(value);
  const allowed = policy.allowLoopbackHttp ? ["https:", "http:"] : ["https:"];
  if (!allowed.includes(url.protocol)) {
    return {
      code: "INVALID_FORMAT",
      message:
        "Must be an https:// URL (http:// is allowed only outside production).",
    };
  }
  if (url.username !== "" || url.password !== "") {
    return {
      code: "INVALID_FORMAT",
      message:
        "Must not carry a user name or password: the signature authenticates each delivery.",
    };
  }
  const range = forbiddenRange(url.hostname);
  if (range === null || (range.kind === LOOPBACK && policy.allowLoopbackHttp)) {
    return null;
  }
  const where =
    range.cidr === "localhost"
      ? "localhost"
      : `a ${range.kind} address (${range.cidr})`;
  return {
    code: "INVALID_VALUE",
    message: `Must not point at ${where}: webhooks go only to public hosts${
      range.kind === LOOPBACK ? " in production" : ""
    }.`,
  };
}

/**
 * Why the eFTI gate may not be `value` (EFTI_GATE_URL, docs/efti.md), or
 * null when it may: in production what a webhook endpoint may be (https://,
 * a public host); elsewhere only a loopback host (http:// or https://), so
 * that a local run or a test never registers anything with a real gate.
 */
export function gateUrlRefusal(
  value: string,
  { production }: { production: boolean },
): string | null {
  if (production) {
    const refusal = webhookUrlRefusal(value, { allowLoopbackHttp: false });
    if (refusal) return `must be the gate's https:// URL: ${refusal.message}`;
  } else {
    if (!URL.canParse(value)) return "must be an absolute URL, or empty (off)";
    const url = new URL(value);
    if (!["http:", "https:"].includes(url.protocol)) {
      return "must be an http(s):// URL, or empty (off)";
    }
    if (url.username !== "" || url.password !== "") {
      return "must not carry a user name or password (EFTI_GATE_CREDENTIAL and EFTI_GATE_HEADERS authenticate to the gate)";
    }
    if (forbiddenRange(url.hostname)?.kind !== LOOPBACK) {
      return "must name a loopback host (127.0.0.1, [::1], localhost) outside production";
    }
  }
  const url = new URL(value);
  if (url.search !== "" || url.hash !== "") {
    return "must have no query or fragment: the registrations' paths are added to it";
  }
  return null;
}
