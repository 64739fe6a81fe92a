import { describe, expect, it } from "vitest";
import { fullRequest } from "../../../fixtures/requests";
import { STORED_SINGLE_SHIPMENT } from "../../../fixtures/stored-single-shipment";
import { createCredential } from "../../helpers/credentials";
import { documentsApi } from "../../helpers/documents-api";
import { shardOf } from "../../helpers/shards";
import { callWithClock, fixedClock } from "../../helpers/worker";

const NOW = Date.UTC(2026, 10, 21, 9, 30);

const storedBody = (uuid: string) =>
  shardOf(uuid)
    .prepare(
      "SELECT data, metadata, request_hash AS requestHash FROM documents WHERE uuid = ?",
    )
    .bind(uuid)
    .first();

describe("a document stored before grouped shipments existed", () => {
  it("answers an identical retry 200 with the original", async () => {
    const { key } = await createCredential();
    const api = documentsApi(callWithClock(fixedClock(NOW)), key);
    const original = await api.issue(fullRequest());
    // Its row as that code left it: the body and hash it stored.
    await shardOf(original.uuid)
      .prepare(
        "UPDATE documents SET data = ?, metadata = ?, request_hash = ? WHERE uuid = ?",
      )
      .bind(
        STORED_SINGLE_SHIPMENT.data,
        STORED_SINGLE_SHIPMENT.metadata,
        STORED_SINGLE_SHIPMENT.requestHash,
        original.uuid,
      )
      .run();

    const retry = await api.create(fullRequest());
    expect(retry.status).toBe(200);
    const answered = (await retry.json()) as typeof original;
    expect(answered.uuid).toBe(original.uuid);
    expect(answered.data).toEqual(JSON.parse(STORED_SINGLE_SHIPMENT.data));
    expect(answered).toEqual(original);
  });

  it("is what a create of the same body stores: the same columns, the same hash", async () => {
    const { key } = await createCredential();
    const api = documentsApi(callWithClock(fixedClock(NOW)), key);
    const { uuid } = await api.issue(fullRequest());
    expect(await storedBody(uuid)).toEqual(STORED_SINGLE_SHIPMENT);
  });
});
