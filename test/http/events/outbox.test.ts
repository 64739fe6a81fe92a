import { describe, expect, it } from "vitest";
import { fullRequest, minimalRequest } from "../../../fixtures/requests";
import {
  type DocumentResultBody,
  deletion,
  issueDemoDocument,
  qrPath,
  withIssuedDocument,
} from "../../helpers/documents-api";
import { rowsOfAllShards } from "../../helpers/shards";

const NOW = Date.UTC(2026, 10, 21, 5);
const MINUTE = 60_000;

interface OutboxRow {
  id: string;
  type: string;
  credential_id: string;
  environment: string;
  created_at: number;
  document_uuid: string;
  reference: string | null;
  rectifies_uuid: string | null;
  first_access: number | null;
}

/** A credential's events in the order they were written (each shard's rowid breaks ties). */
const outboxOf = async (credentialId: string) =>
  (
    await rowsOfAllShards<OutboxRow>(
      "SELECT * FROM event_outbox WHERE credential_id = ? ORDER BY rowid",
      credentialId,
    )
  ).sort((a, b) => a.created_at - b.created_at);

describe("the events a document's facts write, in the batch that commits them", () => {
  it("writes one event per fact: issue, correction, first and later QR access, deletion; none for a retry", async () => {
    const { clock, request, owner, api, document } =
      await withIssuedDocument(NOW);
    // An identical retry issues nothing, so it has no event.
    expect((await api.create(fullRequest())).status).toBe(200);
    clock.advance(MINUTE);
    const correction = (await (
      await api.rectify(document.uuid, {
        ...fullRequest(),
        reference: "PED-2026-0001-R1",
      })
    ).json()) as DocumentResultBody;
    clock.advance(MINUTE);
    expect((await request(qrPath(correction.url))).status).toBe(200);
    clock.advance(MINUTE);
    expect((await request(qrPath(correction.url))).status).toBe(200);
    clock.advance(MINUTE);
    const other = await api.issue({ ...minimalRequest(), reference: null });
    expect((await api.remove(other.uuid, deletion())).status).toBe(204);

    const events = await outboxOf(owner.id);
    expect(
      events.map((event) => [
        event.type,
        event.document_uuid,
        event.first_access,
      ]),
    ).toEqual([
      ["document.issued", document.uuid, null],
      ["document.issued", correction.uuid, null],
      ["document.rectified", document.uuid, null],
      ["document.accessed", correction.uuid, 1],
      ["document.accessed", correction.uuid, 0],
      ["document.issued", other.uuid, null],
      ["document.deleted", other.uuid, null],
    ]);
    const rectified = events.find(
      (event) => event.type === "document.rectified",
    );
    expect(rectified).toMatchObject({
      reference: document.data.reference,
      rectifies_uuid: null,
      environment: "test",
    });
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
    for (const event of events) expect(event.id).toMatch(/^evt_[0-9a-f]{24}$/);
  });

  it("writes none for a demo document", async () => {
    const { request } = await withIssuedDocument(NOW);
    const demo = await issueDemoDocument(request);
    const rows = await rowsOfAllShards(
      "SELECT * FROM event_outbox WHERE document_uuid = ?",
      demo.uuid,
    );
    expect(rows).toEqual([]);
  });

  it("writes no deletion event when the deletion is refused", async () => {
    const { request, owner, api, document } = await withIssuedDocument(NOW);
    expect((await request(qrPath(document.url))).status).toBe(200);
    expect((await api.remove(document.uuid)).status).toBe(409);
    const types = (await outboxOf(owner.id)).map((event) => event.type);
    expect(types).toEqual(["document.issued", "document.accessed"]);
  });
});
