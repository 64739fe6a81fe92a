import { describe, expect, it } from "vitest";
import { minimalRequest } from "../../../fixtures/requests";
import { datasetId } from "../../../src/domain/efti/dataset-id";
import { eventSchema } from "../../../src/schemas/event";
import { createCredential } from "../../helpers/credentials";
import {
  documentsApi,
  freshNetwork,
  qrPath,
} from "../../helpers/documents-api";
import { gateApi, TEST_GATE } from "../../helpers/gate";
import { opsClient } from "../../helpers/ops";
import { insertEndpoint, webhookWorld } from "../../helpers/webhooks";

// A gate's read of a document (docs/efti.md "Gates"): the document being
// used, an access as a QR scan is (deletion refused, document.accessed sent
// to its owner, saying how), written at most once a minute; and the
// document's audit trail lists each read written, and each of its owner's
// eFTI exports.

const NOW = Date.UTC(2026, 10, 24, 8);
const MINUTE = 60_000;

async function setUp() {
  const world = webhookWorld(NOW);
  // Only live documents reach a gate.
  const owner = await createCredential({ environment: "live" });
  await insertEndpoint(owner.id, {
    createdAt: NOW,
    eventTypes: ["document.accessed"],
  });
  const api = documentsApi(world.request(), owner.key);
  const document = await api.issue(minimalRequest());
  const gate = gateApi(world.request(), freshNetwork());
  const id = await datasetId(document.uuid, 1);
  /** The document.accessed events delivered: when, whether first, and how. */
  const accesses = async () => {
    await world.consumeDue();
    return world.receiver.received.map((delivery) => {
      const event = eventSchema.parse(JSON.parse(delivery.body));
      if (event.type !== "document.accessed") throw new Error(event.type);
      return [
        Date.parse(event.data.accessed_at),
        event.data.first,
        event.data.via,
      ];
    });
  };
  return { world, owner, api, document, gate, id, accesses };
}

interface TrailEntry {
  type: string;
  credential_id: string | null;
  gate: string | null;
  dataset_id: string | null;
  request_id: string;
}

/** The document's audit trail, as support reads it. */
async function auditTrail(uuid: string): Promise<TrailEntry[]> {
  const response = await opsClient()(`/ops/v1/documents/${uuid}/audit`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { events: TrailEntry[] }).events;
}

async function errorCode(response: Response, status: number) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { errors: { code: string }[] };
  return body.errors[0]?.code;
}

describe("a gate's read of a document", () => {
  it("is an access: the deletion is refused as after a QR scan, and the owner is sent document.accessed via efti_gate", async () => {
    const { api, document, gate, id, accesses } = await setUp();
    expect((await gate.get(id)).status).toBe(200);
    expect(await errorCode(await api.remove(document.uuid), 409)).toBe(
      "DOCUMENT_ALREADY_ACCESSED",
    );
    expect(await accesses()).toEqual([[NOW, true, "efti_gate"]]);
  });

  it("is written at most once a minute, as QR accesses are, and a QR scan's event says qr", async () => {
    const { world, document, gate, id, accesses } = await setUp();
    for (let i = 0; i < 5; i++) {
      expect((await gate.get(id)).status).toBe(200);
      world.clock.advance(10_000);
    }
    // 50 s after the first: still within its minute.
    expect((await world.request()(qrPath(document.url))).status).toBe(200);
    world.clock.set(NOW + MINUTE);
    expect((await gate.get(id)).status).toBe(200);
    world.clock.set(NOW + 2 * MINUTE);
    expect((await world.request()(qrPath(document.url))).status).toBe(200);
    expect(await accesses()).toEqual([
      [NOW, true, "efti_gate"],
      [NOW + MINUTE, false, "efti_gate"],
      [NOW + 2 * MINUTE, false, "qr"],
    ]);
    const trail = await auditTrail(document.uuid);
    expect(
      trail
        .filter((entry) => entry.type !== "issued")
        .map(({ type, gate, dataset_id }) => [type, gate, dataset_id]),
    ).toEqual([
      ["efti_gate_read", TEST_GATE, id],
      ["efti_gate_read", TEST_GATE, id],
      ["qr_accessed", null, null],
    ]);
  });

  it("leaves a document nobody read deletable, and a follow-up alone is not a read", async () => {
    const { api, document, gate, id, accesses } = await setUp();
    // A 404 (another dataset id) reads nothing.
    expect((await gate.get(await datasetId(document.uuid, 2))).status).toBe(
      404,
    );
    expect((await gate.followUp(id, "Sin incidencias")).status).toBe(200);
    expect((await api.remove(document.uuid)).status).toBe(204);
    expect(await accesses()).toEqual([]);
  });
});

describe("the document's audit trail (GET /ops/v1/documents/{uuid}/audit)", () => {
  it("lists each gate read, with its gate and request id, and each eFTI export by its owner", async () => {
    const { world, owner, api, document, gate, id } = await setUp();
    const read = await gate.get(id);
    expect(read.status).toBe(200);
    world.clock.advance(1000);
    const list = await api.efti(document.uuid);
    expect(list.status).toBe(200);
    world.clock.advance(1000);
    const xml = await api.efti(document.uuid, id);
    expect(xml.status).toBe(200);
    const trail = await auditTrail(document.uuid);
    expect(trail.filter((entry) => entry.type !== "issued")).toEqual([
      expect.objectContaining({
        type: "efti_gate_read",
        credential_id: null,
        gate: TEST_GATE,
        dataset_id: id,
        request_id: read.headers.get("X-Request-Id"),
      }),
      expect.objectContaining({
        type: "efti_exported",
        credential_id: owner.id,
        gate: null,
        dataset_id: null,
        request_id: list.headers.get("X-Request-Id"),
      }),
      expect.objectContaining({
        type: "efti_exported",
        credential_id: owner.id,
        gate: null,
        dataset_id: id,
        request_id: xml.headers.get("X-Request-Id"),
      }),
    ]);
    expect(trail[0]).toMatchObject({ type: "issued", credential_id: owner.id });
  });
});
