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

const ipv4Range = (bytes: number[]): Range | null =>
  IPV4_RANGES.find(([network, prefix]) =>
    inPrefix(bytes, network, prefix),
  )?.[2] ?? null;

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

function ipv6Range(bytes: number[]): Range | null {
  const firstTen = bytes.slice(0, 10).every((byte) => byte === 0);
  const [b10, b11] = [bytes[10], bytes[11]];
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): the IPv4
  // address inside decides, as a stack that maps them would connect to it.
  if (
    firstTen &&
    ((b10 === 0xff && b11 === 0xff) || (b10 === 0 && b11 === 0))
  ) {
    const inside = bytes.slice(12);
    if (b10 === 0 && inside.slice(0, 3).every((byte) => byte === 0)) {
      if (inside[3] === 0) return { kind: "unspecified", cidr: "::/128" };
      if (inside[3] === 1) return { kind: LOOPBACK, cidr: "::1/128" };
    }
    return ipv4Range(inside);
  }
  if (inPrefix(bytes, [0xfe, 0x80], 10)) {
    return { kind: "link-local", cidr: "fe80::/10" };
  }
  if (inPrefix(bytes, [0xfc], 7)) {
    return { kind: "unique-local", cidr: "fc00::/7" };
  }
  if (inPrefix(bytes, [0xff], 8)) {
    return { kind: "multicast", cidr: "ff00::/8" };
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
  if (ipv4) return ipv4Range(ipv4.slice(1).map(Number));
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
      return "must not carry a user name or password (EFTI_GATE_CREDENTIAL is the gate's credential)";
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
