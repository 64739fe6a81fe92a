import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { groupedRequest, minimalRequest } from "../../../fixtures/requests";
import { readConfig } from "../../../src/config";
import { demoNetwork } from "../../../src/domain/demo/demo-network";
import { consignmentWithId } from "../../../src/domain/efti/consignment";
import { datasetId } from "../../../src/domain/efti/dataset-id";
import type { SubsetId } from "../../../src/domain/efti/schema-facts.generated";
import { consignmentXml, subsetOf } from "../../../src/domain/efti/subsets";
import { GATE_REFUSALS_KEPT } from "../../../src/domain/operations/gate-calls";
import type { DocumentData } from "../../../src/schemas/document-request";
import { createCredential } from "../../helpers/credentials";
import {
  type DocumentResultBody,
  deletion,
  demoDocumentsApi,
  documentsApi,
  freshNetwork,
} from "../../helpers/documents-api";
import { d1Refuses } from "../../helpers/faults";
import {
  clientCertificate,
  gateApi,
  gateKey,
  gateKeyring,
  TEST_GATE,
} from "../../helpers/gate";
import { declaredGateOperations } from "../../helpers/gate-contract";
import { opsClient, supportSecret } from "../../helpers/ops";
import {
  bearer,
  callWithClock,
  fixedClock,
  fromIp,
} from "../../helpers/worker";

// The eFTI platform interface for gates (docs/efti.md "Gates"): a
// consignment by dataset id reduced to the subsets asked, the follow-up, the
// gate's key and allow-list, and the audit trail of every request. Each
// answer is checked against the vendored platform-api-for-gate.yaml
// (test/helpers/gate-contract.ts) or the error body.

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 24, 8);

interface GateCallRow {
  id: number;
  operation: string | null;
  request_id: string;
  gate_request_id: string | null;
  dataset_id: string;
  subsets: string[];
  subsets_served: string[] | null;
  gate: string | null;
  client_ip: string;
  status: number | null;
  started_at: string;
  finished_at: string | null;
}

/** The trail's rows of one dataset id, newest first, through the operations API. */
async function gateCalls(
  dataset: string,
  query = "",
): Promise<{ data: GateCallRow[]; has_more: boolean }> {
  const response = await opsClient()(
    `/ops/v1/efti/gate-calls?dataset_id=${encodeURIComponent(dataset)}${query}`,
  );
  expect(response.status).toBe(200);
  return response.json();
}

async function setup(bindings: Env = env) {
  const clock = fixedClock(NOW);
  const request = callWithClock(clock, bindings);
  // Only live documents reach a gate.
  const owner = await createCredential({ environment: "live" });
  const api = documentsApi(request, owner.key);
  const document = await api.issue(minimalRequest());
  const ip = freshNetwork();
  return {
    clock,
    request,
    owner,
    api,
    document,
    ip,
    gate: gateApi(request, ip),
    id: await datasetId(document.uuid, 1),
  };
}

/**
 * What the gate should be answered: the export of `id` reduced to `subsets`
 * (of a version that `rectifiedByUuid` corrected, when given).
 */
async function expectedXml(
  document: DocumentResultBody,
  id: string,
  subsets: SubsetId[],
  rectifiedByUuid: string | null = null,
): Promise<string> {
  const consignment = await consignmentWithId(
    {
      uuid: document.uuid,
      createdAt: Date.parse(document.created_at),
      rectifiesUuid: document.rectifies_uuid,
      rectifiedByUuid,
      data: document.data as DocumentData,
    },
    id,
  );
  if (!consignment) throw new Error(`no dataset ${id}`);
  return consignmentXml(subsetOf(consignment.root, subsets));
}

async function xmlIn(response: Response): Promise<string> {
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toBe(
    "application/xml; charset=utf-8",
  );
  expect(response.headers.get("Cache-Control")).toBe("no-store, private");
  return response.text();
}

async function errorCode(response: Response, status: number) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { errors: { code: string }[] };
  return body.errors[0]?.code;
}

describe("GET /efti/v0/consignments/{datasetId}", () => {
  it("answers the consignment reduced to the subsets asked, as application/xml", async () => {
    const { gate, document, id } = await setup();
    expect(await xmlIn(await gate.get(id))).toBe(
      await expectedXml(document, id, ["ES01"]),
    );
    expect(await xmlIn(await gate.get(id, "?subsetId=identifier"))).toBe(
      await expectedXml(document, id, ["identifier"]),
    );
    const both = await xmlIn(
      await gate.get(id, "?subsetId=ES01&subsetId=identifier&subsetId=ES01"),
    );
    expect(both).toBe(await expectedXml(document, id, ["ES01", "identifier"]));
    expect(await xmlIn(await gate.get(id, "?subsetId=identifier,ES01"))).toBe(
      both,
    );
    expect(both).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<consignment xmlns="http:\/\/efti.eu\/v1\/consignment\/common">/,
    );
    // A dataset id in capitals is the same one.
    expect(await xmlIn(await gate.get(id.toUpperCase()))).toBe(
      await expectedXml(document, id, ["ES01"]),
    );
  });

  it("serves ES02 to ES05 only as EFTI_EXTRA_SUBSETS names them", async () => {
    const { gate, document, id } = await setup({
      ...env,
      EFTI_EXTRA_SUBSETS: "ES04, ES02",
    });
    for (const subset of ["ES02", "ES04"] as const) {
      expect(await xmlIn(await gate.get(id, `?subsetId=${subset}`))).toBe(
        await expectedXml(document, id, [subset]),
      );
    }
    for (const query of ["?subsetId=ES03", "?subsetId=ES02,ES05"]) {
      const response = await gate.get(id, query);
      expect(await errorCode(response, 400)).toBe("INVALID_SUBSET_ID");
    }
  });

  it("answers `full`, the reference gate's request when the officer names no subset, with every subset served", async () => {
    const { gate, document, id } = await setup();
    const served = await expectedXml(document, id, ["ES01", "identifier"]);
    for (const query of [
      "?subsetId=full",
      "?subsetId=full,ES01",
      "?subsetId=identifier&subsetId=full",
    ]) {
      expect(await xmlIn(await gate.get(id, query))).toBe(served);
    }
    const extended = await setup({ ...env, EFTI_EXTRA_SUBSETS: "ES03" });
    expect(
      await xmlIn(await extended.gate.get(extended.id, "?subsetId=full")),
    ).toBe(
      await expectedXml(extended.document, extended.id, [
        "ES01",
        "identifier",
        "ES03",
      ]),
    );
  });

  it("serves each shipment of a grouped document by its own dataset id", async () => {
    const { api, gate } = await setup();
    const grouped = await api.issue(groupedRequest(3));
    for (const shipment of [1, 2, 3]) {
      const id = await datasetId(grouped.uuid, shipment);
      expect(await xmlIn(await gate.get(id))).toBe(
        await expectedXml(grouped, id, ["ES01"]),
      );
    }
    // Shipment 4 of a document of 3 names no consignment.
    const beyond = await datasetId(grouped.uuid, 4);
    expect(await errorCode(await gate.get(beyond), 404)).toBe("NOT_FOUND");
  });

  it("refuses a missing, unknown or unserved subsetId with 400 INVALID_SUBSET_ID", async () => {
    const { gate, id } = await setup();
    for (const query of [
      "",
      "?subsetId=",
      "?subsetId=ES06",
      "?subsetId=ES01&subsetId=es02",
      "?subsetId=ES01,",
      "?subset=ES01",
      "?subsetId=FULL",
      // Served only when EFTI_EXTRA_SUBSETS names them.
      "?subsetId=ES02",
      "?subsetId=ES01,ES05",
      "?subsetId=full&subsetId=ES03",
    ]) {
      const response = await gate.get(id, query);
      expect(await errorCode(response, 400)).toBe("INVALID_SUBSET_ID");
    }
  });

  it("sees a document as its QR link does: any owner, no 24-hour window, a rectified version; never a deleted, demo, unknown or malformed one", async () => {
    const { clock, api, gate, document, id, request } = await setup();
    // Past the owner's read window: the owner's own GET is 404, the gate's 200.
    clock.advance(30 * 24 * HOUR);
    expect((await api.get(document.uuid)).status).toBe(404);
    expect((await gate.get(id)).status).toBe(200);

    // A rectified version is still served, as its QR link is; and its correction.
    clock.set(NOW);
    const fresh = await api.issue(minimalRequest());
    const rectified = await api.rectify(fresh.uuid, minimalRequest());
    expect(rectified.status).toBe(200);
    const correction = (await rectified.json()) as DocumentResultBody;
    expect((await gate.get(await datasetId(fresh.uuid, 1))).status).toBe(200);
    expect((await gate.get(await datasetId(correction.uuid, 1))).status).toBe(
      200,
    );

    // Deleted: 404.
    const doomed = await api.issue(minimalRequest());
    expect((await api.remove(doomed.uuid, deletion())).status).toBe(204);
    const gone = await gate.get(await datasetId(doomed.uuid, 1));
    expect(await errorCode(gone, 404)).toBe("NOT_FOUND");

    // Demo: 404.
    const demo = await (await demoDocumentsApi(request, freshNetwork())).issue(
      minimalRequest(),
    );
    const demoId = await datasetId(demo.uuid, 1);
    expect(await errorCode(await gate.get(demoId), 404)).toBe("NOT_FOUND");

    // Unknown (the right bucket and millisecond, another hash) and malformed.
    const unknown = `${id.slice(0, 24)}${id.slice(24) === "000000000000" ? "111111111111" : "000000000000"}`;
    for (const other of [unknown, "not-a-dataset-id", id.slice(0, 35)]) {
      expect(await errorCode(await gate.get(other), 404)).toBe("NOT_FOUND");
    }
  });

  it("serves a corrected original naming the correcting document and when it was corrected, in ES01 and full", async () => {
    const { clock, api, gate, document, id } = await setup();
    clock.advance(HOUR);
    const body = minimalRequest();
    body.vehicle.registration = "9876KLM";
    const rectified = await api.rectify(document.uuid, body);
    expect(rectified.status).toBe(200);
    const correction = (await rectified.json()) as DocumentResultBody;
    const named = `Rectified by DeCA document: ${correction.uuid}, at ${correction.created_at}`;
    expect(correction.created_at).toBe(new Date(NOW + HOUR).toISOString());
    for (const [query, subsets] of [
      ["?subsetId=ES01", ["ES01"]],
      ["?subsetId=full", ["ES01", "identifier"]],
    ] as const) {
      const xml = await xmlIn(await gate.get(id, query));
      // The original still carries its own plate, and says it was replaced.
      expect(xml).toContain("<id>5678DFG</id>");
      expect(xml).toContain(`<information>${named}</information>`);
      expect(xml).toContain(
        `<information>Issued at: ${document.created_at}</information>`,
      );
      expect(xml).toBe(
        await expectedXml(document, id, [...subsets], correction.uuid),
      );
    }
    // The correction names the original, and is issued at the correction's time.
    const corrected = await xmlIn(
      await gate.get(await datasetId(correction.uuid, 1)),
    );
    expect(corrected).toContain("<id>9876KLM</id>");
    expect(corrected).toContain(
      `<information>Rectifies DeCA document: ${document.uuid}</information>`,
    );
    expect(corrected).toContain(
      `<information>Issued at: ${correction.created_at}</information>`,
    );
  });

  it("never serves a test key's document: its dataset id answers and is audited as an unknown one", async () => {
    const { request, gate, id } = await setup();
    const tester = documentsApi(request, (await createCredential()).key);
    const development = await tester.issue(minimalRequest());
    const developmentId = await datasetId(development.uuid, 1);
    // An unknown id of the same document's bucket and millisecond.
    const unknownId = `${developmentId.slice(0, 24)}${developmentId.slice(24) === "000000000000" ? "111111111111" : "000000000000"}`;
    const answers = [];
    for (const dataset of [developmentId, unknownId]) {
      const read = await gate.get(dataset);
      expect(read.status).toBe(404);
      const followUp = await gate.followUp(dataset, "Sin incidencias");
      expect(followUp.status).toBe(404);
      answers.push([await read.json(), await followUp.json()]);
      expect(
        (await gateCalls(dataset)).data.map(({ subsets, status, gate }) => ({
          subsets,
          status,
          gate,
        })),
      ).toEqual([
        { subsets: [], status: 404, gate: TEST_GATE },
        { subsets: ["ES01"], status: 404, gate: TEST_GATE },
      ]);
    }
    expect(answers[0]).toEqual(answers[1]);
    // The live document beside it is served.
    expect((await gate.get(id)).status).toBe(200);
  });
});

describe("who may call /efti/v0", () => {
  it("is nobody without GATE_KEYRING: every path 404, the gate's key too", async () => {
    const { GATE_KEYRING: _, ...withoutKeyring } = env;
    const { gate, id } = await setup(withoutKeyring as Env);
    expect(await errorCode(await gate.get(id), 404)).toBe("NOT_FOUND");
    expect(await errorCode(await gate.followUp(id, "hola"), 404)).toBe(
      "NOT_FOUND",
    );
    expect((await gateCalls(id)).data).toEqual([]);
  });

  it("refuses every other credential with 401 GATE_UNAUTHENTICATED: none, a customer key, a demo token, the support secret, a wrong key", async () => {
    const { request, ip, owner, id } = await setup();
    const demoKey = await (async () => {
      const response = await request("/api/v1/demo/tokens", {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "CF-Connecting-IP": freshNetwork(),
        },
        body: "{}",
      });
      return ((await response.json()) as { token: string }).token;
    })();
    const presented = [
      null,
      owner.key,
      demoKey,
      supportSecret(),
      btoa("another-gate".padEnd(32, "0")),
      `${gateKey()}x`,
    ];
    for (const key of presented) {
      const response = await gateApi(request, ip, key).get(id);
      expect(await errorCode(response, 401)).toBe("GATE_UNAUTHENTICATED");
      expect(response.headers.get("WWW-Authenticate")).toBe("Bearer");
    }
    const rows = (await gateCalls(id)).data;
    expect(rows).toHaveLength(presented.length);
    for (const row of rows) {
      expect(row).toMatchObject({
        dataset_id: id,
        subsets: ["ES01"],
        gate: null,
        client_ip: ip,
        status: 401,
      });
    }
  });

  it("is refused on /api/v1 and /ops/v1 with the gate's key", async () => {
    const { request } = await setup();
    expect((await request("/api/v1/documents", bearer(gateKey()))).status).toBe(
      401,
    );
    expect(
      (await opsClient()("/ops/v1/calls", { secret: gateKey() })).status,
    ).toBe(401);
  });

  it("takes every version of the keyring, each naming its gate in the trail", async () => {
    const keyring = gateKeyring({
      "es-gate.2027-07": "first-gate-key",
      "es-gate.2028-01": "second-gate-key",
    });
    const { request, ip, id } = await setup({ ...env, GATE_KEYRING: keyring });
    for (const version of ["es-gate.2027-07", "es-gate.2028-01"]) {
      const response = await gateApi(
        request,
        ip,
        gateKey(keyring, version),
      ).get(id);
      expect(response.status).toBe(200);
    }
    expect((await gateCalls(id)).data.map((row) => row.gate)).toEqual([
      "es-gate.2028-01",
      "es-gate.2027-07",
    ]);
  });

  it("requires the client certificate GATE_CLIENT_CERTIFICATES names for a key version: none, unverified or another is 401 GATE_UNAUTHENTICATED, a row of the trail", async () => {
    const keyring = gateKeyring({
      "es-gate.2027-07": "first-gate-key",
      "pt-gate.2027-07": "second-gate-key",
    });
    const fingerprint = "ab".repeat(32);
    const { request, ip, id } = await setup({
      ...env,
      GATE_KEYRING: keyring,
      GATE_CLIENT_CERTIFICATES: JSON.stringify({
        "es-gate.2027-07": fingerprint,
      }),
    });
    const esKey = gateKey(keyring, "es-gate.2027-07");
    const es = (cf?: ReturnType<typeof clientCertificate>) =>
      gateApi(request, ip, esKey, cf);
    expect((await es(clientCertificate(fingerprint)).get(id)).status).toBe(200);
    for (const cf of [
      undefined,
      clientCertificate(fingerprint, "FAILED:self signed certificate"),
      clientCertificate("cd".repeat(32)),
    ]) {
      expect(await errorCode(await es(cf).get(id), 401)).toBe(
        "GATE_UNAUTHENTICATED",
      );
      const [last] = (await gateCalls(id)).data;
      expect(last).toMatchObject({ gate: null, client_ip: ip, status: 401 });
    }
    // A key version without a certificate configured needs none.
    const pt = gateApi(request, ip, gateKey(keyring, "pt-gate.2027-07"));
    expect((await pt.get(id)).status).toBe(200);
  });

  it("stops on a GATE_CLIENT_CERTIFICATES that is not key versions to lower-case SHA-256 fingerprints", () => {
    const vars = (value: string) => ({
      ...env,
      GATE_CLIENT_CERTIFICATES: value,
    });
    expect(readConfig(vars("")).gate.clientCertificates).toEqual({});
    for (const value of [
      `{"es-gate.2027-07":"${"AB".repeat(32)}"}`,
      '{"es-gate.2027-07":"ab:cd"}',
      "not json",
      "[]",
    ]) {
      expect(() => readConfig(vars(value)), value).toThrow(
        /GATE_CLIENT_CERTIFICATES/,
      );
    }
  });

  it("answers only the IPs of GATE_ALLOWED_IPS when set: another is 403 GATE_IP_NOT_ALLOWED, a row of the trail", async () => {
    const allowed = freshNetwork();
    const { request, id } = await setup({
      ...env,
      GATE_ALLOWED_IPS: `203.0.113.9, ${allowed}`,
    });
    expect((await gateApi(request, allowed).get(id)).status).toBe(200);
    const other = freshNetwork();
    const refused = await gateApi(request, other).get(id);
    expect(await errorCode(refused, 403)).toBe("GATE_IP_NOT_ALLOWED");
    const [last] = (await gateCalls(id)).data;
    expect(last).toMatchObject({ gate: null, client_ip: other, status: 403 });
  });

  it("reads GATE_ALLOWED_IPS' CIDR ranges, IPv4 and IPv6, and compares IPv6 addresses in any spelling", async () => {
    const { request, id } = await setup({
      ...env,
      GATE_ALLOWED_IPS:
        "198.51.100.0/24, 2001:0db8:0:0:0:0:0:1, 2001:db8:a11:0::/64",
    });
    for (const ip of [
      "198.51.100.0",
      "198.51.100.255",
      "2001:db8::1",
      "2001:DB8:0::0:1",
      "2001:db8:a11:0:ffff:1:2:3",
    ]) {
      expect((await gateApi(request, ip).get(id)).status, ip).toBe(200);
    }
    for (const ip of ["198.51.101.1", "2001:db8::2", "2001:db8:a11:1::1"]) {
      const refused = await gateApi(request, ip).get(id);
      expect(await errorCode(refused, 403), ip).toBe("GATE_IP_NOT_ALLOWED");
    }
  });

  it(`keeps ${GATE_REFUSALS_KEPT.limit} refusals a minute of one network in the trail; beyond, 429 GATE_RATE_LIMITED and a log line only`, async () => {
    const { request, id } = await setup();
    const network = freshNetwork();
    const guesser = gateApi(request, network, "guess");
    for (let i = 0; i < GATE_REFUSALS_KEPT.limit; i++) {
      expect((await guesser.get(id)).status).toBe(401);
    }
    const flooded = await guesser.get(id);
    expect(await errorCode(flooded, 429)).toBe("GATE_RATE_LIMITED");
    expect(Number(flooded.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await gateApi(request, network, null).get(id)).status).toBe(429);
    const rows = (await gateCalls(id, "&limit=100")).data;
    expect(rows.filter((row) => row.client_ip === network)).toHaveLength(
      GATE_REFUSALS_KEPT.limit,
    );
    // The two beyond are counted in their network's minute, not lost.
    expect(
      await env.DB_0.prepare(
        "SELECT count, first_status, last_status FROM efti_gate_refusals WHERE network = ?",
      )
        .bind(demoNetwork(network))
        .all(),
    ).toMatchObject({
      results: [{ count: 2, first_status: 401, last_status: 401 }],
    });
  });
});

describe("the audit trail of the gates (GET /ops/v1/efti/gate-calls)", () => {
  it("has a row for every request, its gate, subsets, status, newest first, in pages", async () => {
    const { gate, id, ip } = await setup();
    await gate.get(id);
    await gate.get(id, "?subsetId=ES01&subsetId=identifier");
    await gate.get(id, "?subsetId=ES99");
    await gate.followUp(id, "Control en A-3.");
    const { data, has_more } = await gateCalls(id);
    expect(has_more).toBe(false);
    expect(
      data.map(({ operation, subsets, subsets_served, status, gate: by }) => ({
        operation,
        subsets,
        subsets_served,
        status,
        by,
      })),
    ).toEqual([
      {
        operation: "follow_up",
        subsets: [],
        subsets_served: null,
        status: 200,
        by: TEST_GATE,
      },
      {
        operation: "get_consignment",
        subsets: ["ES99"],
        subsets_served: null,
        status: 400,
        by: TEST_GATE,
      },
      {
        operation: "get_consignment",
        subsets: ["ES01", "identifier"],
        subsets_served: ["ES01", "identifier"],
        status: 200,
        by: TEST_GATE,
      },
      {
        operation: "get_consignment",
        subsets: ["ES01"],
        subsets_served: ["ES01"],
        status: 200,
        by: TEST_GATE,
      },
    ]);
    for (const row of data) {
      expect(row.dataset_id).toBe(id);
      expect(row.client_ip).toBe(ip);
      expect(row.request_id).toMatch(/^req_[0-9A-Za-z]{24}$/);
      expect(row.started_at).toBe(new Date(NOW).toISOString());
      expect(row.finished_at).toBe(new Date(NOW).toISOString());
    }
    const first = await gateCalls(id, "&limit=3");
    expect(first.data.map((row) => row.id)).toEqual(
      data.slice(0, 3).map((row) => row.id),
    );
    expect(first.has_more).toBe(true);
    const rest = await gateCalls(
      id,
      `&limit=3&starting_after=${first.data.at(-1)?.id}`,
    );
    expect(rest).toEqual({ data: data.slice(3), has_more: false });
  });

  it("records the subsets served, normalised: full and repeated or comma-separated values as the subsets they name, once each", async () => {
    const { gate, id } = await setup();
    await gate.get(id, `?${"subsetId=identifier&".repeat(12)}subsetId=ES01`);
    await gate.get(id, "?subsetId=full");
    await gate.get(id, "?subsetId=ES01,identifier,ES01");
    const { data } = await gateCalls(id);
    expect(data.map((row) => [row.subsets, row.subsets_served])).toEqual([
      [
        ["ES01", "identifier", "ES01"],
        ["ES01", "identifier"],
      ],
      [["full"], ["ES01", "identifier"]],
      [Array(12).fill("identifier"), ["identifier", "ES01"]],
    ]);
  });

  it("keeps the gate's own id of each request: its requestId parameter, else its X-Request-Id header", async () => {
    const { gate, id, request, ip } = await setup();
    await gate.get(id, "?subsetId=ES01&requestId=gate-req-0001");
    await fromIp(request, ip)(`/efti/v0/consignments/${id}?subsetId=ES01`, {
      headers: {
        Authorization: `Bearer ${gateKey()}`,
        "X-Request-Id": "gate-req-0002",
      },
    });
    await gate.get(id, `?subsetId=ES01&requestId=${"x".repeat(100)}`);
    await gate.get(id);
    const { data } = await gateCalls(id);
    expect(data.map((row) => [row.gate_request_id, row.status])).toEqual([
      [null, 200],
      ["x".repeat(64), 200],
      ["gate-req-0002", 200],
      ["gate-req-0001", 200],
    ]);
  });

  it("serves nothing when the request cannot be recorded: 503, no consignment", async () => {
    const { id, ip, clock } = await setup();
    const request = callWithClock(
      clock,
      d1Refuses(/insert into "efti_gate_calls"/),
    );
    const response = await gateApi(request, ip).get(id);
    expect(response.status).toBe(503);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect((await gateCalls(id)).data).toEqual([]);
  });

  it("refuses a malformed query with 422", async () => {
    for (const query of [
      "?limit=0",
      "?starting_after=abc",
      "?limit=1&limit=2",
    ]) {
      expect(
        (await opsClient()(`/ops/v1/efti/gate-calls${query}`)).status,
      ).toBe(422);
    }
  });
});

describe("the answers, against platform-api-for-gate.yaml", () => {
  it("are served for each operation it declares, with the statuses it declares", async () => {
    const { gate, id } = await setup();
    const operations = declaredGateOperations();
    expect(operations).toEqual([
      {
        path: "/v0/consignments/{datasetId}",
        method: "get",
        statuses: ["200"],
      },
      {
        path: "/v0/consignments/{datasetId}/follow-up",
        method: "post",
        statuses: ["200"],
      },
    ]);
    // Each call below is checked against the file by the test helpers.
    expect((await gate.get(id)).status).toBe(200);
    expect((await gate.followUp(id, "Vehículo inmovilizado.")).status).toBe(
      200,
    );
  });
});
