import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  fullRequest,
  groupedRequest,
  minimalRequest,
} from "../../fixtures/requests";
import { readConfig } from "../../src/config";
import { withdrawnIdentifierXml } from "../../src/domain/efti/subsets";
import { createCredential } from "../helpers/credentials";
import {
  demoDocumentsApi,
  documentsApi,
  freshNetwork,
} from "../helpers/documents-api";
import {
  datasetOf,
  GATE_CREDENTIAL,
  GATE_URL,
  gated,
  identifiersOf,
  putsFor,
  registrationsOf,
} from "../helpers/efti-gate";
import { webhookWorld } from "../helpers/webhooks";

// The eFTI gate's registrations (docs/efti.md "Registration with the gate"):
// with a gate configured, each issue, correction and deletion writes one
// registration a dataset in its commit batch, and the events queue's
// consumer PUTs each dataset's identifier document, as the document then
// is, to the gate; a 2xx marks it sent, anything else comes back. Off (the
// default), nothing is written or sent. The gate here records; the stub gate
// on loopback that validates each body against the XSD is
// test/e2e/efti-gate.test.ts.

const NOW = Date.UTC(2026, 10, 24, 9);
const MINUTE = 60_000;

beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation(() => {});
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function setUp(gateAnswer?: Parameters<typeof webhookWorld>[2]) {
  const world = webhookWorld(NOW, undefined, gateAnswer);
  // Only live documents are registered.
  const owner = await createCredential({ environment: "live" });
  const api = (bindings: Env = gated()) =>
    documentsApi(world.request(bindings), owner.key);
  /** The dataset ids the owner's API lists for a document. */
  const datasetIds = async (uuid: string) =>
    (
      (await (await api().efti(uuid)).json()) as {
        data: { dataset_id: string }[];
      }
    ).data.map((dataset) => dataset.dataset_id);
  return { world, owner, api, datasetIds };
}

describe("with a gate configured", () => {
  it("an issue registers its one dataset: one PUT of its identifier document, then sent", async () => {
    const { world, api, datasetIds } = await setUp();
    const document = await api().issue(fullRequest());
    const [id] = await datasetIds(document.uuid);
    expect(await registrationsOf(document.uuid)).toEqual([
      expect.objectContaining({ dataset_id: id, sent_at: null }),
    ]);
    expect(world.queue.waiting.map(({ body }) => body)).toContainEqual({
      kind: "efti_registration",
      documentUuids: [document.uuid],
    });
    await world.consumeDue(gated());
    const puts = putsFor(world.gate.received, [id as string]);
    expect(puts).toHaveLength(1);
    const put = puts[0];
    expect(put?.url).toBe(`${GATE_URL}/v0/consignments/${id}`);
    expect(put?.headers.get("content-type")).toBe("application/xml");
    expect(put?.headers.get("authorization")).toBe(`Bearer ${GATE_CREDENTIAL}`);
    expect(put?.body).toBe((await identifiersOf(document.uuid)).get(id ?? ""));
    // The plate as the export writes it (spaces and hyphens dropped).
    expect(put?.body).toContain(
      `<id>${fullRequest().vehicle.registration.replace(/[\s-]/g, "").toUpperCase()}</id>`,
    );
    expect(put?.body).toContain("http://efti.eu/v1/consignment/identifier");
    expect(await registrationsOf(document.uuid)).toEqual([
      expect.objectContaining({ dataset_id: id, sent_at: NOW }),
    ]);
  });

  it("a grouped document registers one dataset a shipment, each PUT once", async () => {
    const { world, api, datasetIds } = await setUp();
    const document = await api().issue(groupedRequest(5));
    const ids = await datasetIds(document.uuid);
    expect(ids).toHaveLength(5);
    await world.consumeDue(gated());
    const puts = putsFor(world.gate.received, ids);
    expect(puts.map(datasetOf).sort()).toEqual([...ids].sort());
    const expected = await identifiersOf(document.uuid);
    for (const put of puts) expect(put.body).toBe(expected.get(datasetOf(put)));
    const rows = await registrationsOf(document.uuid);
    expect(rows.map((row) => row.dataset_id).sort()).toEqual([...ids].sort());
    expect(rows.every((row) => row.sent_at === NOW)).toBe(true);
  });

  it("a correction registers the new version's datasets and withdraws its original's", async () => {
    const { world, api, datasetIds } = await setUp();
    const original = await api().issue(minimalRequest());
    const [originalId] = await datasetIds(original.uuid);
    await world.consumeDue(gated());
    world.clock.advance(MINUTE);
    const response = await api().rectify(original.uuid, {
      ...minimalRequest(),
      vehicle: { ...minimalRequest().vehicle, registration: "9999ZZZ" },
    });
    expect(response.status).toBe(200);
    const correction = (await response.json()) as { uuid: string };
    const [id] = await datasetIds(correction.uuid);
    expect(await registrationsOf(correction.uuid)).toEqual([
      expect.objectContaining({ dataset_id: id, sent_at: null }),
    ]);
    await world.consumeDue(gated());
    const [put, ...more] = putsFor(world.gate.received, [id as string]);
    expect(more).toEqual([]);
    expect(put?.body).toContain("9999ZZZ");
    expect(put?.body).toBe(
      (await identifiersOf(correction.uuid)).get(id ?? ""),
    );
    // The original's dataset registered again in the correction's batch,
    // withdrawn: a gate no longer finds the corrected version by its plate.
    expect(await registrationsOf(original.uuid)).toEqual([
      expect.objectContaining({ dataset_id: originalId, sent_at: NOW }),
      expect.objectContaining({
        dataset_id: originalId,
        sent_at: NOW + MINUTE,
      }),
    ]);
    const originalPuts = putsFor(world.gate.received, [originalId as string]);
    expect(originalPuts).toHaveLength(2);
    expect(originalPuts[1]?.body).toBe(withdrawnIdentifierXml());
  });

  it("a deletion registers each dataset again, withdrawn: nothing identifies it", async () => {
    const { world, api, datasetIds } = await setUp();
    const document = await api().issue(groupedRequest(2));
    const ids = await datasetIds(document.uuid);
    await world.consumeDue(gated());
    world.clock.advance(MINUTE);
    expect((await api().remove(document.uuid)).status).toBe(204);
    expect(
      (await registrationsOf(document.uuid)).filter(
        (row) => row.sent_at === null,
      ),
    ).toHaveLength(2);
    await world.consumeDue(gated());
    const puts = putsFor(world.gate.received, ids);
    expect(puts).toHaveLength(4);
    const withdrawn = puts.slice(2);
    expect(withdrawn.map(datasetOf).sort()).toEqual([...ids].sort());
    for (const put of withdrawn) {
      expect(put.body).toBe(withdrawnIdentifierXml());
    }
    expect(
      (await registrationsOf(document.uuid)).map((row) => row.sent_at),
    ).toEqual([NOW, NOW, NOW + MINUTE, NOW + MINUTE]);
  });

  it.each([
    ["answers 503", () => new Response("busy", { status: 503 })],
    [
      "applies it and its answer is lost",
      () => {
        throw new Error("Network connection lost.");
      },
    ],
    [
      "redirects",
      () =>
        new Response(null, {
          status: 307,
          headers: { location: "http://127.0.0.1:9/other" },
        }),
    ],
  ])(
    "a gate that %s the first time gets it again, then it is sent",
    async (_, fail) => {
      let calls = 0;
      const { world, api, datasetIds } = await setUp(() =>
        calls++ === 0 ? fail() : new Response("ok"),
      );
      const document = await api().issue(minimalRequest());
      const [id] = await datasetIds(document.uuid);
      await world.consumeDue(gated());
      expect(putsFor(world.gate.received, [id as string])).toHaveLength(1);
      expect(await registrationsOf(document.uuid)).toEqual([
        expect.objectContaining({ sent_at: null }),
      ]);
      // The message comes back after its delay.
      world.clock.advance(MINUTE);
      await world.consumeDue(gated());
      const puts = putsFor(world.gate.received, [id as string]);
      expect(puts).toHaveLength(2);
      expect(puts[1]?.body).toBe(puts[0]?.body);
      expect(await registrationsOf(document.uuid)).toEqual([
        expect.objectContaining({ sent_at: NOW + MINUTE }),
      ]);
    },
  );

  it("a test key's document registers nothing: issued, corrected or deleted", async () => {
    const { world } = await setUp();
    const tester = documentsApi(
      world.request(gated()),
      (await createCredential({ environment: "test" })).key,
    );
    const original = await tester.issue(minimalRequest());
    const corrected = await tester.rectify(original.uuid, minimalRequest());
    expect(corrected.status).toBe(200);
    const correction = (await corrected.json()) as { uuid: string };
    expect((await tester.remove(correction.uuid)).status).toBe(204);
    expect(
      world.queue.waiting.filter(
        ({ body }) => body.kind === "efti_registration",
      ),
    ).toEqual([]);
    await world.consumeDue(gated());
    expect(await registrationsOf(original.uuid)).toEqual([]);
    expect(await registrationsOf(correction.uuid)).toEqual([]);
    expect(world.gate.received).toEqual([]);
  });

  it("a demo document registers nothing", async () => {
    const { world } = await setUp();
    const demo = await demoDocumentsApi(world.request(gated()), freshNetwork());
    const document = await demo.issue(minimalRequest());
    expect(await registrationsOf(document.uuid)).toEqual([]);
    expect(
      world.queue.waiting.filter(
        ({ body }) => body.kind === "efti_registration",
      ),
    ).toEqual([]);
  });
});

describe("the gate's authentication", () => {
  // What the reference gate's SecurityConfig reads of a platform (set by
  // its reverse proxy; EFTI_GATE_HEADERS stands for it here).
  const PRE_AUTHENTICATED = {
    "X-Pre-Authenticated-User-Id": "deca-platform",
    "X-Pre-Authenticated-User-Role": "PLATFORM",
  };

  /** The one PUT of a live document issued and registered on `bindings`. */
  async function registeredPut(bindings: Env) {
    const { world, api, datasetIds } = await setUp();
    const document = await api(bindings).issue(minimalRequest());
    const [id = ""] = await datasetIds(document.uuid);
    await world.consumeDue(bindings);
    return { world, document, id, puts: putsFor(world.gate.received, [id]) };
  }

  it("configured headers are sent, and no Authorization without a credential", async () => {
    const { puts } = await registeredPut(
      gated(env, { EFTI_GATE_HEADERS: JSON.stringify(PRE_AUTHENTICATED) }),
    );
    expect(puts).toHaveLength(1);
    const headers = puts[0]?.headers;
    expect(headers?.get("x-pre-authenticated-user-id")).toBe("deca-platform");
    expect(headers?.get("x-pre-authenticated-user-role")).toBe("PLATFORM");
    expect(headers?.get("authorization")).toBeNull();
    expect(headers?.get("content-type")).toBe("application/xml");
  });

  it("configured headers go with the Bearer credential when both are set", async () => {
    const { puts } = await registeredPut(
      gated(env, {
        EFTI_GATE_HEADERS: JSON.stringify(PRE_AUTHENTICATED),
        EFTI_GATE_CREDENTIAL: GATE_CREDENTIAL,
      }),
    );
    expect(puts[0]?.headers.get("authorization")).toBe(
      `Bearer ${GATE_CREDENTIAL}`,
    );
    expect(puts[0]?.headers.get("x-pre-authenticated-user-role")).toBe(
      "PLATFORM",
    );
  });

  it("with the client certificate binding, each PUT goes through it and nowhere else", async () => {
    // Stands in for the mtls_certificates binding: a Fetcher that records.
    const through: { url: string; headers: Headers; body: string }[] = [];
    const clientCertificate = {
      async fetch(input: RequestInfo | URL, init?: RequestInit) {
        const request = new Request(input, init);
        through.push({
          url: request.url,
          headers: request.headers,
          body: await request.text(),
        });
        return new Response("ok");
      },
    };
    const { world, document, id } = await registeredPut(
      gated(env, { EFTI_GATE_CLIENT_CERTIFICATE: clientCertificate }),
    );
    expect(world.gate.received).toEqual([]);
    expect(through.map((put) => put.url)).toEqual([
      `${GATE_URL}/v0/consignments/${id}`,
    ]);
    expect(through[0]?.headers.get("authorization")).toBeNull();
    expect(through[0]?.body).toBe((await identifiersOf(document.uuid)).get(id));
    expect(await registrationsOf(document.uuid)).toEqual([
      expect.objectContaining({ dataset_id: id, sent_at: NOW }),
    ]);
  });
});

describe("without a gate (the default)", () => {
  it("an issue, a correction and a deletion write no registration and send nothing", async () => {
    const { world, api } = await setUp();
    const original = await api(env).issue(minimalRequest());
    const corrected = await api(env).rectify(original.uuid, minimalRequest());
    expect(corrected.status).toBe(200);
    const correction = (await corrected.json()) as { uuid: string };
    expect((await api(env).remove(correction.uuid)).status).toBe(204);
    expect(
      world.queue.waiting.filter(({ body }) => body.kind !== "outbox"),
    ).toEqual([]);
    await world.consumeDue();
    expect(await registrationsOf(original.uuid)).toEqual([]);
    expect(await registrationsOf(correction.uuid)).toEqual([]);
    expect(world.gate.received).toEqual([]);
  });
});

describe("EFTI_GATE_URL", () => {
  const vars = (extra: Record<string, string>) => ({ ...env, ...extra });

  it("is off when empty, and takes a loopback URL outside production", () => {
    expect(readConfig(vars({})).eftiGate).toBeNull();
    expect(
      readConfig(vars({ EFTI_GATE_URL: "http://127.0.0.1:8080/gate/" }))
        .eftiGate,
    ).toEqual({
      url: "http://127.0.0.1:8080/gate",
      credential: null,
      headers: {},
    });
    expect(
      readConfig(
        vars({
          EFTI_GATE_URL: "http://localhost:1",
          EFTI_GATE_CREDENTIAL: "s",
        }),
      ).eftiGate,
    ).toEqual({ url: "http://localhost:1", credential: "s", headers: {} });
  });

  it.each([
    "https://gate.example",
    "http://10.0.0.1/gate",
    "ftp://127.0.0.1/",
    "not a url",
    "http://127.0.0.1/gate?x=1",
  ])("refuses %s outside production", (url) => {
    expect(() => readConfig(vars({ EFTI_GATE_URL: url }))).toThrow(
      /EFTI_GATE_URL must/,
    );
  });

  it("in production takes a public https URL with its authentication, nothing else", () => {
    const production = (extra: Record<string, unknown>) =>
      vars({
        DEPLOYMENT: "production",
        BASE_URL: "https://deca.example",
        ...extra,
      } as Record<string, string>);
    expect(
      readConfig(
        production({
          EFTI_GATE_URL: "https://gate.example/efti",
          EFTI_GATE_CREDENTIAL: "secret",
        }),
      ).eftiGate,
    ).toEqual({
      url: "https://gate.example/efti",
      credential: "secret",
      headers: {},
    });
    // Any one of the three authentications is enough.
    expect(
      readConfig(
        production({
          EFTI_GATE_URL: "https://gate.example",
          EFTI_GATE_HEADERS: '{"X-Pre-Authenticated-User-Id":"deca"}',
        }),
      ).eftiGate,
    ).toEqual({
      url: "https://gate.example",
      credential: null,
      headers: { "X-Pre-Authenticated-User-Id": "deca" },
    });
    expect(
      readConfig(
        production({
          EFTI_GATE_URL: "https://gate.example",
          EFTI_GATE_CLIENT_CERTIFICATE: { fetch: () => {} },
        }),
      ).eftiGate,
    ).toEqual({ url: "https://gate.example", credential: null, headers: {} });
    for (const none of [
      {},
      { EFTI_GATE_CREDENTIAL: "", EFTI_GATE_HEADERS: "{}" },
    ]) {
      expect(() =>
        readConfig(
          production({ EFTI_GATE_URL: "https://gate.example", ...none }),
        ),
      ).toThrow(
        /EFTI_GATE_URL needs an authentication in production: EFTI_GATE_CREDENTIAL, EFTI_GATE_HEADERS or the EFTI_GATE_CLIENT_CERTIFICATE binding/,
      );
    }
    for (const url of ["http://gate.example", "https://127.0.0.1/gate"]) {
      expect(() =>
        readConfig(
          production({ EFTI_GATE_URL: url, EFTI_GATE_CREDENTIAL: "secret" }),
        ),
      ).toThrow(/EFTI_GATE_URL must be the gate's https:\/\/ URL/);
    }
  });
});

describe("EFTI_GATE_HEADERS", () => {
  const withHeaders = (headers: string, extra: Record<string, string> = {}) =>
    readConfig({
      ...env,
      EFTI_GATE_URL: GATE_URL,
      EFTI_GATE_HEADERS: headers,
      ...extra,
    });

  it("is a JSON object of header names to values, sent as they are", () => {
    expect(
      withHeaders('{"X-Pre-Authenticated-User-Id":"deca","X-Api-Key":"k"}')
        .eftiGate?.headers,
    ).toEqual({ "X-Pre-Authenticated-User-Id": "deca", "X-Api-Key": "k" });
    expect(withHeaders("").eftiGate?.headers).toEqual({});
  });

  it.each([
    ["not JSON", "secret-value"],
    ["not an object", '["secret-value"]'],
    ["a value not a string", '{"X-Key":["secret-value"]}'],
    ["a name not a header's", '{"X Key":"secret-value"}'],
    ["a value over two lines", '{"X-Key":"secret-value\\r\\nX-Other: 1"}'],
  ])("refuses %s, never quoting it", (_, headers) => {
    expect(() => withHeaders(headers)).toThrow(/EFTI_GATE_HEADERS must be/);
    try {
      withHeaders(headers);
    } catch (error) {
      expect(String(error)).not.toContain("secret-value");
    }
  });

  it.each([
    "Host",
    "connection",
    "Keep-Alive",
    "Transfer-Encoding",
    "TE",
    "Trailer",
    "Upgrade",
    "Proxy-Authorization",
    "Content-Length",
    "Content-Type",
  ])("refuses %s, a header the request itself sets or a hop's", (name) => {
    expect(() => withHeaders(JSON.stringify({ [name]: "x" }))).toThrow(
      new RegExp(`EFTI_GATE_HEADERS may not set ${name}`, "i"),
    );
  });

  it("refuses Authorization when EFTI_GATE_CREDENTIAL is set, and takes it otherwise", () => {
    expect(() =>
      withHeaders('{"authorization":"Basic c2VjcmV0"}', {
        EFTI_GATE_CREDENTIAL: "s",
      }),
    ).toThrow(
      /EFTI_GATE_HEADERS may not set Authorization when EFTI_GATE_CREDENTIAL is set/,
    );
    expect(
      withHeaders('{"Authorization":"Basic c2VjcmV0"}').eftiGate?.headers,
    ).toEqual({ Authorization: "Basic c2VjcmV0" });
  });
});
