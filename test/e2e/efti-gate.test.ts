import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fullRequest,
  groupedRequest,
  minimalRequest,
} from "../../fixtures/requests";
import {
  apiClient,
  keys,
  type RunningService,
  startService,
} from "../../scripts/lib/commands";
import { localSupportSecret, readDevVars } from "../../scripts/lib/dev-vars";
import { schemaErrors } from "../efti/validate";
import {
  platformClient,
  type ReceivedPut,
  type ReferenceGate,
  startReferenceGate,
} from "./reference-gate";

// The service and the EU reference implementation's gate, as it behaves on
// its REST interface (./reference-gate.ts, which names the classes it
// mirrors): `npm start` with EFTI_GATE_URL the stub gate's base for
// platforms and, as its only authentication, EFTI_GATE_HEADERS naming the
// platform as the gate's reverse proxy would (no credential). The gate
// validates each identifier document against consignment-identifier.xsd and
// keeps in its registry what its IdentifiersMapper reads of it; one
// dataset's first PUT is applied and its answer lost (the connection
// dropped): it comes again. Then the gate's own requests to the service as
// it sends them: `subsetId=full` when the officer names none, and a
// follow-up in ISO-8859-1 as text/plain without a charset.

/** What the gate's reverse proxy would set for this platform. */
const PLATFORM = "deca-platform";
const PRE_AUTHENTICATED = {
  "X-Pre-Authenticated-User-Id": PLATFORM,
  "X-Pre-Authenticated-User-Role": "PLATFORM",
};

let gate: ReferenceGate;
let stateDir: string;
let service: RunningService;
let api: ReturnType<typeof apiClient>;
/** The live customer key of the documents, which a gate's interface refuses. */
let customerKey: string;

beforeAll(async () => {
  gate = await startReferenceGate();
  stateDir = await mkdtemp(join(tmpdir(), "deca-efti-gate-"));
  service = await startService(stateDir, undefined, {
    EFTI_GATE_URL: gate.url,
    EFTI_GATE_HEADERS: JSON.stringify(PRE_AUTHENTICATED),
  });
  const issued = await keys(
    stateDir,
    "create",
    "--org",
    "Gate SL",
    "--env",
    "live",
  );
  customerKey = (JSON.parse(issued.stdout) as { key: string }).key;
  api = apiClient(service.port, customerKey);
});

afterAll(async () => {
  await service?.stop();
  await gate?.close();
  await rm(stateDir, { recursive: true, force: true });
});

/** Waits until `ready` holds, or fails after `ms` saying what it waited for. */
async function until(what: string, ready: () => boolean, ms = 90_000) {
  const deadline = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const putsOf = (datasetId: string) =>
  gate.puts.filter((put) => put.datasetId === datasetId);

/** What the gate's registry holds of a dataset of this platform. */
const registered = (datasetId: string) =>
  gate.registry.get(`${PLATFORM} ${datasetId}`);

async function issue(body: unknown): Promise<string> {
  const response = await api("/api/v1/documents", {
    method: "POST",
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { uuid: string }).uuid;
}

async function datasetIds(uuid: string): Promise<string[]> {
  const response = await api(`/api/v1/documents/${uuid}/efti`);
  expect(response.status).toBe(200);
  return (
    (await response.json()) as { data: { dataset_id: string }[] }
  ).data.map((dataset) => dataset.dataset_id);
}

/** Waits for `count` PUTs of each dataset; the last of each. */
async function putsArrived(ids: readonly string[], count = 1) {
  await until(`${count} PUT(s) of ${ids.join(", ")}`, () =>
    ids.every((id) => putsOf(id).length >= count),
  );
  return ids.map((id) => putsOf(id).at(-1) as ReceivedPut);
}

describe("identifiers registered with the reference gate", () => {
  it("an issue: one PUT authenticated as the gate expects, no credential, in its registry", async () => {
    const uuid = await issue(fullRequest());
    const [id = ""] = await datasetIds(uuid);
    const [put] = await putsArrived([id]);
    expect(put?.status).toBe(200);
    expect(put?.headers["content-type"]).toBe("application/xml");
    expect(put?.headers["x-pre-authenticated-user-id"]).toBe(PLATFORM);
    expect(put?.headers["x-pre-authenticated-user-role"]).toBe("PLATFORM");
    expect(put?.headers.authorization).toBeUndefined();
    expect(registered(id)).toEqual({
      platformId: PLATFORM,
      datasetId: id,
      carrierAcceptanceDatetime: expect.stringMatching(/^102:\d{8}$/),
      deliveryEventActualOccurrenceDatetime: undefined,
      movements: [
        {
          dangerousGoodsIndicator: false,
          modeCode: "3",
          usedTransportMeansId: "1234BCD",
          usedTransportMeansRegistrationCountry: "ES",
        },
      ],
      equipments: [
        expect.objectContaining({
          equipmentId: "R1234BCD",
          registrationCountry: "ES",
          sequenceNumber: 1,
          carried: [],
        }),
      ],
    });
  });

  it("a grouped document: one PUT a shipment, each in the registry", async () => {
    const uuid = await issue(groupedRequest(3));
    const ids = await datasetIds(uuid);
    expect(ids).toHaveLength(3);
    await putsArrived(ids);
    for (const id of ids) {
      expect(putsOf(id).map((put) => put.status)).toEqual([200]);
      expect(registered(id)?.movements).toHaveLength(1);
    }
  });

  it("a correction, and a deletion: withdrawn from the registry by the empty identifier document", async () => {
    const original = await issue(minimalRequest());
    await putsArrived(await datasetIds(original));
    const corrected = await api(`/api/v1/documents/${original}`, {
      method: "PUT",
      body: JSON.stringify({
        ...minimalRequest(),
        vehicle: { country: "ES", registration: "9999ZZZ" },
      }),
    });
    expect(corrected.status).toBe(200);
    const correction = ((await corrected.json()) as { uuid: string }).uuid;
    const [correctedId = ""] = await datasetIds(correction);
    await putsArrived([correctedId]);
    expect(registered(correctedId)?.movements[0]?.usedTransportMeansId).toBe(
      "9999ZZZ",
    );
    // The corrected original withdrawn: nothing identifies it any more.
    const [originalId = ""] = await datasetIds(original);
    await putsArrived([originalId], 2);
    expect(registered(originalId)?.movements).toEqual([]);

    const other = await issue(minimalRequest());
    const [id = ""] = await datasetIds(other);
    await putsArrived([id]);
    expect(registered(id)?.movements).toHaveLength(1);
    const deleted = await api(`/api/v1/documents/${other}`, {
      method: "DELETE",
      body: JSON.stringify({
        reason: "El transporte se canceló antes de salir",
        confirm_not_delivered: true,
        confirm_not_used: true,
      }),
    });
    expect(deleted.status).toBe(204);
    const [withdrawn] = await putsArrived([id], 2);
    expect(withdrawn?.status).toBe(200);
    // Nothing identifies a deleted document any more: no search finds it.
    expect(registered(id)).toEqual({
      platformId: PLATFORM,
      datasetId: id,
      carrierAcceptanceDatetime: undefined,
      deliveryEventActualOccurrenceDatetime: undefined,
      movements: [],
      equipments: [],
    });
  });

  it("a PUT applied whose answer is lost comes again", async () => {
    // The next document's dataset id is not known before it is issued: the
    // answer lost is the first PUT's of a dataset the gate has not seen.
    const seen = new Set(gate.puts.map((put) => put.datasetId));
    let dropped = false;
    gate.dropAnswer = (datasetId) => {
      if (dropped || seen.has(datasetId)) return false;
      dropped = true;
      return true;
    };
    const uuid = await issue(minimalRequest());
    const [id = ""] = await datasetIds(uuid);
    const [again] = await putsArrived([id], 2);
    expect(putsOf(id).map((put) => put.status)).toEqual([0, 200]);
    expect(again?.body).toBe(putsOf(id)[0]?.body);
  });

  it("the gate took every PUT: each authenticated and valid against consignment-identifier.xsd", async () => {
    expect(gate.puts.length).toBeGreaterThanOrEqual(10);
    expect(gate.puts.filter((put) => ![0, 200].includes(put.status))).toEqual(
      [],
    );
    expect(
      await schemaErrors(
        "consignment-identifier",
        gate.puts.map((put) => put.body),
      ),
    ).toEqual([]);
  });
});

describe("the reference gate's requests to the service under npm start", () => {
  it("full when the officer names no subset, a follow-up in ISO-8859-1, a customer key refused, every call audited", async () => {
    const uuid = await issue({ ...fullRequest(), reference: "GATE-E2E-1" });
    const [id = ""] = await datasetIds(uuid);
    const keyring = JSON.parse((await readDevVars()).GATE_KEYRING ?? "") as {
      current: string;
      keys: Record<string, string>;
    };
    // The reference gate sends no credential to a platform yet; this one is
    // configured with the service's gate key.
    const asGate = platformClient(`http://localhost:${service.port}/efti`, {
      Authorization: `Bearer ${keyring.keys[keyring.current]}`,
    });

    const answer = await asGate.getConsignmentSubsets(id);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toMatch(/^application\/xml/);
    const xml = await answer.text();
    expect(await schemaErrors("consignment-common", [xml])).toEqual([]);
    // ES01's elements and the identifier subset's, together.
    expect(xml).toContain('<id schemeAgencyId="ES">B12345674</id>');
    expect(xml).toContain("<id>1234BCD</id>");

    const customer = await platformClient(
      `http://localhost:${service.port}/efti`,
      { Authorization: `Bearer ${customerKey}` },
    ).getConsignmentSubsets(id);
    expect(customer.status).toBe(401);

    const note = "Sin incidencias. Revisión en Cádiz: señalización correcta.";
    const followUp = await asGate.postConsignmentFollowup(id, note);
    expect(followUp.status).toBe(200);
    // The event is relayed by the queue's consumer: listed within seconds.
    const deadline = Date.now() + 60_000;
    let events: { type: string; data: { message: string } }[] = [];
    while (events.length === 0 && Date.now() < deadline) {
      const listed = await api(
        `/api/v1/events?type=document.efti_follow_up&document_uuid=${uuid}`,
      );
      expect(listed.status).toBe(200);
      events = ((await listed.json()) as { data: typeof events }).data;
      if (events.length === 0) await new Promise((r) => setTimeout(r, 500));
    }
    expect(events.map((event) => event.data.message)).toEqual([note]);

    const calls = await fetch(
      `http://localhost:${service.port}/ops/v1/efti/gate-calls?dataset_id=${id}`,
      { headers: { Authorization: `Bearer ${await localSupportSecret()}` } },
    );
    expect(calls.status).toBe(200);
    const { data } = (await calls.json()) as {
      data: { status: number; gate: string | null }[];
    };
    expect(data.map((call) => [call.status, call.gate])).toEqual([
      [200, keyring.current],
      [401, null],
      [200, keyring.current],
    ]);
  });
});
