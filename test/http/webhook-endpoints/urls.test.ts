import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createCredential } from "../../helpers/credentials";
import { webhookEndpointsApi } from "../../helpers/webhook-endpoints";
import { callWithClock, fixedClock } from "../../helpers/worker";

// Where an endpoint may point (docs/api.md, Webhook endpoints): https:// to
// public hosts in production; outside it, http:// and loopback hosts too,
// for a receiver on the developer's machine. Every refusal is a 422 on
// `url`: INVALID_FORMAT for the scheme or a user or password, INVALID_VALUE
// for the host.

const NOW = Date.UTC(2026, 10, 21, 8, 30);

const PRODUCTION = {
  ...env,
  DEPLOYMENT: "production",
  BASE_URL: "https://deca.example",
};

type Api = ReturnType<typeof webhookEndpointsApi>;

async function apiOn(bindings: Env): Promise<Api> {
  const { key } = await createCredential();
  return webhookEndpointsApi(callWithClock(fixedClock(NOW), bindings), key);
}

/** [url, why (in the message)] refused with INVALID_FORMAT in every deployment. */
const MALFORMED: [string, string][] = [
  ["receiver.example/hooks", "absolute URL"],
  ["/hooks", "absolute URL"],
  ["https://", "absolute URL"],
  ["ftp://receiver.example/hooks", "https://"],
  ["ws://receiver.example/hooks", "https://"],
  ["javascript:alert(1)", "https://"],
  ["https://user:pass@receiver.example/hooks", "user name or password"],
  ["https://user@receiver.example/hooks", "user name or password"],
  ["https://:pass@receiver.example/hooks", "user name or password"],
];

/** [url, why (in the message)] refused with INVALID_VALUE in every deployment. */
const FORBIDDEN_HOSTS: [string, string][] = [
  // IPv4 private
  ["https://10.0.0.1/hooks", "private address (10.0.0.0/8)"],
  ["https://10.255.255.255/", "private address (10.0.0.0/8)"],
  ["https://172.16.0.1/", "private address (172.16.0.0/12)"],
  ["https://172.31.255.254/", "private address (172.16.0.0/12)"],
  ["https://192.168.1.10:8443/", "private address (192.168.0.0/16)"],
  // Other spellings of an IPv4 address, as the URL parser reads them.
  ["https://0xa.0.0.1/", "private address (10.0.0.0/8)"],
  ["https://167772161/", "private address (10.0.0.0/8)"],
  ["https://012.0.0.1/", "private address (10.0.0.0/8)"],
  ["https://192.168.257/", "private address (192.168.0.0/16)"],
  // IPv4 link-local, shared, multicast, unspecified, reserved
  ["https://169.254.169.254/latest/meta-data", "link-local address"],
  ["https://100.64.0.1/", "shared address (100.64.0.0/10)"],
  ["https://100.127.255.255/", "shared address (100.64.0.0/10)"],
  ["https://224.0.0.1/", "multicast address (224.0.0.0/4)"],
  ["https://239.255.255.250/", "multicast address (224.0.0.0/4)"],
  ["https://0.0.0.0/", "unspecified address (0.0.0.0/8)"],
  ["https://0.1.2.3/", "unspecified address (0.0.0.0/8)"],
  ["https://255.255.255.255/", "reserved address (240.0.0.0/4)"],
  // IPv6
  ["https://[::]/", "unspecified address (::/128)"],
  ["https://[fe80::1]/", "link-local address (fe80::/10)"],
  ["https://[febf:ffff::1]/", "link-local address (fe80::/10)"],
  ["https://[fc00::1]/", "unique-local address (fc00::/7)"],
  ["https://[fd12:3456:789a::1]/", "unique-local address (fc00::/7)"],
  ["https://[ff02::1]/", "multicast address (ff00::/8)"],
  // IPv4-mapped and IPv4-compatible IPv6
  ["https://[::ffff:10.0.0.1]/", "private address (10.0.0.0/8)"],
  ["https://[::ffff:a9fe:a9fe]/", "link-local address (169.254.0.0/16)"],
  ["https://[::ffff:192.168.0.1]/", "private address (192.168.0.0/16)"],
  ["https://[::ffff:100.64.0.1]/", "shared address (100.64.0.0/10)"],
  ["https://[::ffff:224.0.0.1]/", "multicast address (224.0.0.0/4)"],
  ["https://[::ffff:0.0.0.0]/", "unspecified address (0.0.0.0/8)"],
  ["https://[::10.0.0.1]/", "private address (10.0.0.0/8)"],
  // Site-local, deprecated but still routed by some networks
  ["https://[fec0::1]/", "site-local address (fec0::/10)"],
  ["https://[feff:ffff::1]/", "site-local address (fec0::/10)"],
  // Other IPv6 forms that embed an IPv4 address: that address decides.
  // NAT64 (64:ff9b::/96)
  ["https://[64:ff9b::a9fe:a9fe]/", "link-local address (169.254.0.0/16)"],
  ["https://[64:ff9b::a00:1]/", "private address (10.0.0.0/8)"],
  ["https://[64:ff9b::192.168.0.1]/", "private address (192.168.0.0/16)"],
  // Local-use NAT64 (64:ff9b:1::/48): where the IPv4 address sits depends
  // on the network's own prefix length, so the whole prefix is refused.
  ["https://[64:ff9b:1::a00:1]/", "local-use NAT64 address (64:ff9b:1::/48)"],
  ["https://[64:ff9b:1::808:808]/", "local-use NAT64 address (64:ff9b:1::/48)"],
  // 6to4 (2002::/16)
  ["https://[2002:a00:1::1]/", "private address (10.0.0.0/8)"],
  ["https://[2002:a9fe:a9fe::]/", "link-local address (169.254.0.0/16)"],
  // IPv4-translated (::ffff:0:0/96)
  ["https://[::ffff:0:a00:1]/", "private address (10.0.0.0/8)"],
  // Teredo (2001::/32): the server, then the client (its bits inverted)
  ["https://[2001:0:a00:1::f7f7:f7f6]/", "private address (10.0.0.0/8)"],
  [
    "https://[2001:0:808:808::5601:5601]/",
    "link-local address (169.254.0.0/16)",
  ],
];

/** [url, why] refused in production only: loopback hosts (INVALID_VALUE). */
const LOOPBACK: [string, string][] = [
  ["https://127.0.0.1/hooks", "loopback address (127.0.0.0/8)"],
  ["https://127.1.2.3/", "loopback address (127.0.0.0/8)"],
  ["https://2130706433/", "loopback address (127.0.0.0/8)"],
  ["https://[::1]/", "loopback address (::1/128)"],
  ["https://[::ffff:127.0.0.1]/", "loopback address (127.0.0.0/8)"],
  ["https://[::ffff:0:7f00:1]/", "loopback address (127.0.0.0/8)"],
  ["https://[64:ff9b::7f00:1]/", "loopback address (127.0.0.0/8)"],
  ["https://[2002:7f00:1::1]/", "loopback address (127.0.0.0/8)"],
  ["https://[2001:0:808:808::80ff:fffe]/", "loopback address (127.0.0.0/8)"],
  ["https://localhost/hooks", "localhost"],
  ["https://LOCALHOST./hooks", "localhost"],
  ["https://api.localhost/hooks", "localhost"],
];

/** Allowed in every deployment. */
const PUBLIC = [
  "https://receiver.example/hooks?source=deca#events",
  "https://receiver.example:8443/hooks",
  "https://8.8.8.8/hooks",
  "https://172.32.0.1/",
  "https://172.15.255.255/",
  "https://100.128.0.1/",
  "https://192.169.0.1/",
  "https://169.255.0.1/",
  "https://[2001:4860:4860::8888]/hooks",
  "https://[::ffff:8.8.8.8]/",
  "https://[64:ff9b::808:808]/",
  "https://[2002:808:808::1]/",
  "https://[::ffff:0:808:808]/",
  "https://[2001:0:808:808::f7f7:fbfb]/",
  "https://localhost.example/hooks",
  `https://receiver.example/${"a".repeat(2048 - "https://receiver.example/".length)}`,
];

/** Allowed outside production only. */
const DEVELOPMENT_ONLY = [
  "http://127.0.0.1:8788/hooks",
  "http://localhost:3000/hooks",
  "http://[::1]:9000/hooks",
  "http://receiver.example/hooks",
  ...LOOPBACK.map(([url]) => url),
];

async function expectRefused(api: Api, url: string, code: string, why: string) {
  const response = await api.create({ url, events: ["*"] });
  expect(response.status, url).toBe(422);
  const body = (await response.json()) as {
    errors: { field: string; code: string; message: string }[];
  };
  expect(body.errors, url).toEqual([
    { field: "url", code, message: expect.stringContaining(why) },
  ]);
}

async function expectAllowed(api: Api, url: string) {
  const response = await api.create({ url, events: ["*"] });
  expect(response.status, `${url}: ${await response.clone().text()}`).toBe(201);
  const { id, url: stored } = (await response.json()) as {
    id: string;
    url: string;
  };
  expect(stored).toBe(url);
  // At most 16 endpoints a key: make room for the next case.
  expect((await api.remove(id)).status).toBe(204);
}

describe.each([
  ["production", PRODUCTION],
  ["development", env],
])("webhook URLs in %s", (_, bindings) => {
  let api: Api;
  beforeAll(async () => {
    api = await apiOn(bindings as Env);
  });

  it.each(MALFORMED)("refuses %s (INVALID_FORMAT: %s)", (url, why) =>
    expectRefused(api, url, "INVALID_FORMAT", why),
  );

  it.each(FORBIDDEN_HOSTS)("refuses %s (INVALID_VALUE: %s)", (url, why) =>
    expectRefused(api, url, "INVALID_VALUE", why),
  );

  it.each(PUBLIC)("takes %s", (url) => expectAllowed(api, url));

  it("refuses a URL over 2048 characters (TOO_LONG)", async () => {
    const url = `https://receiver.example/${"a".repeat(2049 - "https://receiver.example/".length)}`;
    const response = await api.create({ url, events: ["*"] });
    expect(await response.json()).toEqual({
      errors: [
        {
          field: "url",
          code: "TOO_LONG",
          message: expect.stringContaining("2048"),
        },
      ],
    });
  });
});

describe("webhook URLs in production only", () => {
  let api: Api;
  beforeAll(async () => {
    api = await apiOn(PRODUCTION);
  });

  it("refuses http:// (INVALID_FORMAT), even to a loopback host", async () => {
    for (const url of [
      "http://receiver.example/hooks",
      "http://127.0.0.1:8788/hooks",
    ]) {
      await expectRefused(api, url, "INVALID_FORMAT", "https://");
    }
  });

  it.each(LOOPBACK)("refuses %s (INVALID_VALUE: %s)", (url, why) =>
    expectRefused(api, url, "INVALID_VALUE", why),
  );

  it("applies the same rules to a change of URL, and lists it with the body's other errors", async () => {
    const created = await api.register({
      url: "https://receiver.example/hooks",
      events: ["*"],
    });
    for (const url of ["http://receiver.example/", "https://localhost/"]) {
      const response = await api.update(created.id, { url });
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({
        errors: [{ field: "url" }],
      });
    }
    const both = await api.create({
      url: "https://10.1.2.3/",
      events: [],
    });
    expect(await both.json()).toEqual({
      errors: [
        { field: "url", code: "INVALID_VALUE", message: expect.any(String) },
        { field: "events", code: "TOO_SHORT", message: expect.any(String) },
      ],
    });
    expect(await (await api.get(created.id)).json()).toMatchObject({
      url: "https://receiver.example/hooks",
    });
  });
});

describe("webhook URLs in development only", () => {
  let api: Api;
  beforeAll(async () => {
    api = await apiOn(env);
  });

  it.each(DEVELOPMENT_ONLY)(
    "takes %s, for a receiver on the developer's machine",
    (url) => expectAllowed(api, url),
  );
});
