import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
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

// The identifiers of every issued, corrected or deleted consignment reach an
// eFTI gate (docs/efti.md "Registration with the gate"): `npm start` with
// EFTI_GATE_URL and EFTI_GATE_CREDENTIAL in its environment, and a stub gate
// on loopback that records each PUT and validates its body against the
// vendored consignment-identifier.xsd (xmllint-wasm). One dataset's first
// PUT is applied and its answer lost (the connection dropped): it comes again.

const CREDENTIAL = "e2e-gate-credential";

interface Put {
  datasetId: string;
  contentType: string | undefined;
  authorization: string | undefined;
  body: string;
}

const puts: Put[] = [];
/** Datasets whose first PUT is recorded, then its connection dropped. */
const dropFirst = new Set<string>();
let gate: Server;
let stateDir: string;
let service: RunningService;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  gate = createServer((request, response) => {
    const match = /^\/gate\/v0\/consignments\/([^/]+)$/.exec(request.url ?? "");
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on("end", () => {
      if (request.method !== "PUT" || !match?.[1]) {
        response.writeHead(404).end();
        return;
      }
      const datasetId = decodeURIComponent(match[1]);
      puts.push({
        datasetId,
        contentType: request.headers["content-type"],
        authorization: request.headers.authorization,
        body,
      });
      if (dropFirst.delete(datasetId)) {
        request.socket.destroy();
        return;
      }
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => gate.listen(0, "127.0.0.1", resolve));
  const { port } = gate.address() as AddressInfo;
  stateDir = await mkdtemp(join(tmpdir(), "deca-efti-gate-"));
  service = await startService(stateDir, undefined, {
    EFTI_GATE_URL: `http://127.0.0.1:${port}/gate`,
    EFTI_GATE_CREDENTIAL: CREDENTIAL,
  });
  const issued = await keys(
    stateDir,
    "create",
    "--org",
    "Gate SL",
    "--env",
    "live",
  );
  api = apiClient(
    service.port,
    (JSON.parse(issued.stdout) as { key: string }).key,
  );
});

afterAll(async () => {
  await service?.stop();
  await new Promise((resolve) => gate?.close(resolve));
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
  puts.filter((put) => put.datasetId === datasetId);

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
async function registered(ids: readonly string[], count = 1) {
  await until(`${count} PUT(s) of ${ids.join(", ")}`, () =>
    ids.every((id) => putsOf(id).length >= count),
  );
  return ids.map((id) => putsOf(id).at(-1) as Put);
}

describe("identifiers registered with a stub gate on loopback", () => {
  it("an issue: one PUT of its identifier document, authenticated, valid against the XSD", async () => {
    const uuid = await issue(fullRequest());
    const [put] = await registered(await datasetIds(uuid));
    expect(put?.contentType).toBe("application/xml");
    expect(put?.authorization).toBe(`Bearer ${CREDENTIAL}`);
    expect(put?.body).toContain("<id>1234BCD</id>");
  });

  it("a grouped document: one PUT a shipment", async () => {
    const uuid = await issue(groupedRequest(3));
    const ids = await datasetIds(uuid);
    expect(ids).toHaveLength(3);
    await registered(ids);
    for (const id of ids) expect(putsOf(id)).toHaveLength(1);
  });

  it("a correction and a deletion", async () => {
    const original = await issue(minimalRequest());
    await registered(await datasetIds(original));
    const corrected = await api(`/api/v1/documents/${original}`, {
      method: "PUT",
      body: JSON.stringify({
        ...minimalRequest(),
        vehicle: { country: "ES", registration: "9999ZZZ" },
      }),
    });
    expect(corrected.status).toBe(200);
    const correction = ((await corrected.json()) as { uuid: string }).uuid;
    const [put] = await registered(await datasetIds(correction));
    expect(put?.body).toContain("<id>9999ZZZ</id>");
    // The corrected original withdrawn: nothing identifies it any more.
    const [replaced] = await registered(await datasetIds(original), 2);
    expect(replaced?.body).not.toContain("<id>");

    const other = await issue(minimalRequest());
    const ids = await datasetIds(other);
    await registered(ids);
    const deleted = await api(`/api/v1/documents/${other}`, {
      method: "DELETE",
      body: JSON.stringify({
        reason: "El transporte se canceló antes de salir",
        confirm_not_delivered: true,
        confirm_not_used: true,
      }),
    });
    expect(deleted.status).toBe(204);
    const [withdrawn] = await registered(ids, 2);
    // Nothing identifies a deleted document any more.
    expect(withdrawn?.body).not.toContain("<id>");
    expect(withdrawn?.body).toMatch(/<consignment [^>]*\/>/);
  });

  it("a PUT whose answer is lost (the gate applied it) comes again", async () => {
    // The next document's dataset id is not known before it is issued: drop
    // the first answer of whatever dataset the gate has not seen yet.
    const seen = new Set(puts.map((put) => put.datasetId));
    const original = gate.listeners("request")[0] as (
      ...args: unknown[]
    ) => void;
    gate.removeAllListeners("request");
    gate.on("request", (request, response) => {
      const id = decodeURIComponent(
        String(request.url).split("/").at(-1) ?? "",
      );
      if (!seen.has(id) && !putsOf(id).length) dropFirst.add(id);
      original(request, response);
    });
    const uuid = await issue(minimalRequest());
    const [id] = await datasetIds(uuid);
    const [again] = await registered([id as string], 2);
    expect(again?.body).toBe(putsOf(id as string)[0]?.body);
  });

  it("every body the gate received is valid against consignment-identifier.xsd", async () => {
    expect(puts.length).toBeGreaterThanOrEqual(10);
    expect(
      await schemaErrors(
        "consignment-identifier",
        puts.map((put) => put.body),
      ),
    ).toEqual([]);
  });
});

describe("the gates' interface under npm start", () => {
  it("serves a gate's key the subset asked, refuses a customer key, keeps a follow-up for the owner and audits every call", async () => {
    const uuid = await issue({ ...fullRequest(), reference: "GATE-E2E-1" });
    const [id = ""] = await datasetIds(uuid);
    const keyring = JSON.parse((await readDevVars()).GATE_KEYRING ?? "") as {
      current: string;
      keys: Record<string, string>;
    };
    const asGate = (path: string, init: RequestInit = {}) =>
      fetch(`http://localhost:${service.port}${path}`, {
        ...init,
        headers: {
          Authorization: `Bearer ${keyring.keys[keyring.current]}`,
          ...init.headers,
        },
      });

    const answer = await asGate(
      `/efti/v0/consignments/${id}?subsetId=ES01&requestId=e2e-gate-1`,
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toMatch(/^application\/xml/);
    const xml = await answer.text();
    expect(await schemaErrors("consignment-common", [xml])).toEqual([]);
    expect(xml).toContain("<id>ESB12345674</id>");

    const customer = await api(`/efti/v0/consignments/${id}?subsetId=ES01`);
    expect(customer.status).toBe(401);

    const followUp = await asGate(`/efti/v0/consignments/${id}/follow-up`, {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: "Control en la A-3, km 150: documentación correcta.",
    });
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
    expect(events.map((event) => event.data.message)).toEqual([
      "Control en la A-3, km 150: documentación correcta.",
    ]);

    const calls = await fetch(
      `http://localhost:${service.port}/ops/v1/efti/gate-calls?dataset_id=${id}`,
      { headers: { Authorization: `Bearer ${await localSupportSecret()}` } },
    );
    expect(calls.status).toBe(200);
    const { data } = (await calls.json()) as {
      data: {
        status: number;
        gate: string | null;
        gate_request_id: string | null;
      }[];
    };
    expect(
      data.map((call) => [call.status, call.gate, call.gate_request_id]),
    ).toEqual([
      [200, keyring.current, null],
      [401, null, null],
      [200, keyring.current, "e2e-gate-1"],
    ]);
  });
});
