import { describe, expect, it } from "vitest";
import {
  newDocumentUuid,
  shardOfBucket,
} from "../../../src/domain/shard-routing";
import { opsClient } from "../../helpers/ops";
import { bucketMoves, FROM, whileMoving } from "../../helpers/rebalance";
import { shards } from "../../helpers/shards";

// A document's audit trail as support reads it (GET /ops/v1/documents/{uuid}/audit)
// while a rebalance moves its rows: some still in the shard the former count
// routed it to, some already (or also, mid-move) in its shard now.

const NOW = Date.UTC(2026, 10, 21, 9);

async function insertEvent(
  shard: number,
  uuid: string,
  type: string,
  requestId: string,
  at: number,
) {
  await shards[shard]
    ?.prepare(
      "INSERT INTO audit_events (document_uuid, type, credential_id, request_id, occurred_at) VALUES (?, ?, 'cred_audit', ?, ?)",
    )
    .bind(uuid, type, requestId, at)
    .run();
}

describe("a document's audit trail while a rebalance runs", () => {
  it("has the events of both shards, each once", async () => {
    const bucket = Array.from({ length: 64 }, (_, i) => i).find(bucketMoves);
    if (bucket === undefined) throw new Error("no bucket moves");
    const uuid = newDocumentUuid(bucket, NOW);
    const former = shardOfBucket(bucket, FROM);
    const current = shardOfBucket(bucket, 4);
    // Issued before the move; copied by the mover, not yet deleted.
    await insertEvent(former, uuid, "issued", "req_issued", NOW);
    await insertEvent(current, uuid, "issued", "req_issued", NOW);
    // A gate's read not moved yet, a download written where it routes now.
    await shards[former]
      ?.prepare(
        "INSERT INTO efti_reads (document_uuid, type, dataset_id, gate, credential_id, request_id, occurred_at) VALUES (?, 'efti_gate_read', NULL, 'v1', NULL, 'req_gate', ?)",
      )
      .bind(uuid, NOW + 1000)
      .run();
    await insertEvent(current, uuid, "pdf_downloaded", "req_pdf", NOW + 2000);

    const response = await opsClient(whileMoving())(
      `/ops/v1/documents/${uuid}/audit`,
    );

    expect(response.status).toBe(200);
    const { events } = (await response.json()) as {
      events: { type: string; request_id: string }[];
    };
    expect(events.map(({ type, request_id }) => [type, request_id])).toEqual([
      ["issued", "req_issued"],
      ["efti_gate_read", "req_gate"],
      ["pdf_downloaded", "req_pdf"],
    ]);
  });
});
