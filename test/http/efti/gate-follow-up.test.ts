import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { minimalRequest } from "../../../fixtures/requests";
import {
  FOLLOW_UP_RETRY_WINDOW_MS,
  MAX_FOLLOW_UP_BYTES,
} from "../../../src/domain/documents/efti-gate";
import { datasetId } from "../../../src/domain/efti/dataset-id";
import { createCredential } from "../../helpers/credentials";
import {
  deletion,
  demoDocumentsApi,
  documentsApi,
  freshNetwork,
} from "../../helpers/documents-api";
import { d1Lost, d1Refuses } from "../../helpers/faults";
import { gateApi, TEST_GATE } from "../../helpers/gate";
import { shardOf } from "../../helpers/shards";
import { insertEndpoint, webhookWorld } from "../../helpers/webhooks";
import { bearer } from "../../helpers/worker";

// POST /efti/v0/consignments/{datasetId}/follow-up (docs/efti.md "Gates"):
// a gate's text kept beside the document, with the event
// document.efti_follow_up for its owner in the same batch, listed by the
// events API and delivered to its webhooks; a retry of the same text is one
// message and one event, whichever way the first attempt failed.

const NOW = Date.UTC(2026, 10, 24, 9);

beforeEach(() => {
  // The failures are logged; the tests read the rows.
  vi.spyOn(console, "error").mockImplementation(() => {});
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function setUp() {
  const world = webhookWorld(NOW);
  // Only live documents reach a gate.
  const owner = await createCredential({ environment: "live" });
  const endpoint = await insertEndpoint(owner.id, {
    createdAt: NOW,
    eventTypes: ["document.efti_follow_up"],
  });
  const api = documentsApi(world.request(), owner.key);
  const document = await api.issue(minimalRequest());
  const ip = freshNetwork();
  const gate = (bindings?: Env) => gateApi(world.request(bindings), ip);
  return {
    world,
    owner,
    endpoint,
    api,
    document,
    gate,
    id: await datasetId(document.uuid, 1),
  };
}

interface FollowUpRow {
  dataset_id: string;
  shipment: number;
  message: string;
  gate: string;
}

const followUps = async (uuid: string) =>
  (
    await shardOf(uuid)
      .prepare(
        "SELECT dataset_id, shipment, message, gate FROM efti_follow_ups WHERE document_uuid = ? ORDER BY id",
      )
      .bind(uuid)
      .all<FollowUpRow>()
  ).results;

const outboxEvents = async (uuid: string) =>
  (
    await shardOf(uuid)
      .prepare(
        "SELECT dataset_id, shipment, message FROM event_outbox WHERE document_uuid = ? AND type = 'document.efti_follow_up' ORDER BY created_at, id",
      )
      .bind(uuid)
      .all<{ dataset_id: string; shipment: number; message: string }>()
  ).results;

async function errorCode(response: Response, status: number) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { errors: { code: string }[] };
  return body.errors[0]?.code;
}

describe("POST /efti/v0/consignments/{datasetId}/follow-up", () => {
  it("keeps the message and sends the owner its event, listed and delivered like the others", async () => {
    const { world, owner, endpoint, document, gate, id } = await setUp();
    const message = "Control en A-3 km 212: sin infracción. Ελέγχθηκε ✓";
    const response = await gate().followUp(id, message);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
    expect(await followUps(document.uuid)).toEqual([
      { dataset_id: id, shipment: 1, message, gate: TEST_GATE },
    ]);

    await world.consumeDue();
    const listed = await world.request()(
      `/api/v1/events?document_uuid=${document.uuid}&type=document.efti_follow_up`,
      bearer(owner.key),
    );
    expect(listed.status).toBe(200);
    const { data } = (await listed.json()) as {
      data: { id: string; type: string; data: Record<string, unknown> }[];
    };
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      type: "document.efti_follow_up",
      environment: "live",
      data: {
        uuid: document.uuid,
        reference: document.reference,
        rectifies_uuid: null,
        created_at: document.created_at,
        transport_date: "2026-11-21",
        dataset_id: id,
        shipment: 1,
        message,
      },
    });
    const delivered = world.receiver.received.filter(
      (delivery) => delivery.id === data[0]?.id,
    );
    expect(delivered).toHaveLength(1);
    expect(delivered[0]?.url).toContain("receiver.test");
    expect(JSON.parse(delivered[0]?.body ?? "{}")).toEqual(data[0]);
    expect(endpoint.id).toMatch(/^we_/);
  });

  it("keeps one message and one event when a gate sends the same text again; another text is another", async () => {
    const { document, gate, id } = await setUp();
    expect((await gate().followUp(id, "Primero")).status).toBe(200);
    expect((await gate().followUp(id, "Primero")).status).toBe(200);
    expect((await gate().followUp(id, "Segundo")).status).toBe(200);
    expect((await followUps(document.uuid)).map((row) => row.message)).toEqual([
      "Primero",
      "Segundo",
    ]);
    // Both events of the same millisecond: in any order.
    expect(
      (await outboxEvents(document.uuid)).map((row) => row.message).sort(),
    ).toEqual(["Primero", "Segundo"]);
  });

  it("keeps an identical note of a later inspection, past the retry window, as a new message with its event", async () => {
    const { world, document, gate, id } = await setUp();
    expect((await gate().followUp(id, "Sin incidencias")).status).toBe(200);
    world.clock.advance(FOLLOW_UP_RETRY_WINDOW_MS - 1);
    // Within the window: the gate's retry.
    expect((await gate().followUp(id, "Sin incidencias")).status).toBe(200);
    world.clock.advance(2);
    expect((await gate().followUp(id, "Sin incidencias")).status).toBe(200);
    expect((await followUps(document.uuid)).map((row) => row.message)).toEqual([
      "Sin incidencias",
      "Sin incidencias",
    ]);
    expect(await outboxEvents(document.uuid)).toHaveLength(2);
  });

  it("keeps one message when a retry carries the gate's request id of a kept one, past the window too", async () => {
    const { world, document, gate, id } = await setUp();
    const sent = (requestId: string) =>
      gate().followUp(id, "Sin incidencias", "text/plain", {
        "X-Request-Id": requestId,
      });
    expect((await sent("gate-req-1")).status).toBe(200);
    world.clock.advance(FOLLOW_UP_RETRY_WINDOW_MS * 3);
    expect((await sent("gate-req-1")).status).toBe(200);
    expect(await followUps(document.uuid)).toHaveLength(1);
    // Another request of the gate, the window past: another inspection.
    expect((await sent("gate-req-2")).status).toBe(200);
    expect(await followUps(document.uuid)).toHaveLength(2);
    expect(await outboxEvents(document.uuid)).toHaveLength(2);
  });

  it("refuses what is not text/plain (415), over the limit (413), empty or not UTF-8 (400)", async () => {
    const { document, gate, id } = await setUp();
    for (const type of [
      "application/json",
      "text/html",
      "text/plain; charset=utf-16",
      "text/plain; charset=shift_jis",
      null,
    ]) {
      // Bytes: a text body would be labelled text/plain by fetch itself.
      const body = new TextEncoder().encode("hola");
      const response = await gate().followUp(id, body, type);
      expect(await errorCode(response, 415)).toBe("FOLLOW_UP_NOT_TEXT");
    }
    const tooLong = await gate().followUp(
      id,
      "x".repeat(MAX_FOLLOW_UP_BYTES + 1),
    );
    expect(await errorCode(tooLong, 413)).toBe("PAYLOAD_TOO_LARGE");
    // At the limit exactly, in bytes of UTF-8.
    const longest = `${"é".repeat(MAX_FOLLOW_UP_BYTES / 2 - 1)}ok`;
    expect((await gate().followUp(id, longest)).status).toBe(200);
    for (const [body, type] of [
      ["", "text/plain"],
      ["  \n", "text/plain"],
      // Not UTF-8, although its charset says so.
      [new Uint8Array([0x68, 0xff, 0x6f]), "text/plain; charset=utf-8"],
    ] as const) {
      const response = await gate().followUp(id, body, type);
      expect(await errorCode(response, 400)).toBe("INVALID_FOLLOW_UP");
    }
    expect(await followUps(document.uuid)).toHaveLength(1);
  });

  it("reads the reference gate's ISO-8859-1 text without a charset, and an explicit Latin-1 or windows-1252 charset", async () => {
    const { world, owner, document, gate, id } = await setUp();
    // Spring's default: ISO-8859-1 bytes, `text/plain` and no charset.
    const latin1 = (text: string) =>
      Uint8Array.from(text, (character) => character.charCodeAt(0));
    const sent = [
      ["Vehículo revisado: sin infracción", "text/plain"],
      ["Señal de peso: ¿báscula?", "text/plain; charset=ISO-8859-1"],
      ["Inspección nº 2", 'text/plain; charset="latin1"'],
      ["Multa: 200 €", "text/plain; charset=windows-1252"],
      ["Revisión – conductor", "text/plain;charset=CP1252"],
    ] as const;
    for (const [message, type] of sent) {
      // windows-1252 writes € as 0x80 and – as 0x96.
      const bytes = latin1(message.replace("€", "\x80").replace("–", "\x96"));
      expect((await gate().followUp(id, bytes, type)).status).toBe(200);
    }
    // Valid UTF-8 without a charset is read as UTF-8.
    const utf8 = "Conductor: José Núñez";
    const encoded = new TextEncoder().encode(utf8);
    expect((await gate().followUp(id, encoded, "text/plain")).status).toBe(200);
    const messages = [...sent.map(([message]) => message), utf8];
    expect((await followUps(document.uuid)).map((row) => row.message)).toEqual(
      messages,
    );

    await world.consumeDue();
    const listed = await world.request()(
      `/api/v1/events?document_uuid=${document.uuid}&type=document.efti_follow_up&limit=100`,
      bearer(owner.key),
    );
    const { data } = (await listed.json()) as {
      data: { data: { message: string } }[];
    };
    expect(data.map((event) => event.data.message).sort()).toEqual(
      [...messages].sort(),
    );
  });

  it("is 404 for a deleted, a demo or an unknown consignment, and keeps nothing", async () => {
    const { world, api, gate } = await setUp();
    const doomed = await api.issue(minimalRequest());
    expect((await api.remove(doomed.uuid, deletion())).status).toBe(204);
    const demo = await (
      await demoDocumentsApi(world.request(), freshNetwork())
    ).issue(minimalRequest());
    for (const uuid of [doomed.uuid, demo.uuid]) {
      const response = await gate().followUp(await datasetId(uuid, 1), "hola");
      expect(await errorCode(response, 404)).toBe("NOT_FOUND");
      expect(await followUps(uuid)).toEqual([]);
    }
  });
});

describe("a follow-up's batch that fails", () => {
  for (const [fault, bindings] of [
    ["before it is applied", d1Refuses],
    ["after it is applied, its answer lost", d1Lost],
  ] as const) {
    it(`${fault}: the gate's retry leaves one message and one event`, async () => {
      const { document, gate, id } = await setUp();
      const failed = await gate(
        bindings(/insert into "efti_follow_ups"/),
      ).followUp(id, "Reintento");
      expect(failed.status).toBe(503);
      expect((await gate().followUp(id, "Reintento")).status).toBe(200);
      expect(await followUps(document.uuid)).toHaveLength(1);
      expect(await outboxEvents(document.uuid)).toHaveLength(1);
    });
  }
});
