import { describe, expect, it } from "vitest";
import {
  datasetId,
  datasetLocation,
  MAX_ROUTABLE_SHIPMENT,
} from "../../src/domain/efti/dataset-id";
import {
  newDocumentUuid,
  uuidBucket,
  uuidCreatedAt,
} from "../../src/domain/shard-routing";
import { GROUPED_SHIPMENTS } from "../../src/schemas/document-request";
import { DOCUMENT_UUID } from "./documents";

describe("a consignment's dataset id", () => {
  it("is a UUID version 8, the same forever for a document's shipment", async () => {
    const id = await datasetId(DOCUMENT_UUID, 1);
    expect(id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(await datasetId(DOCUMENT_UUID, 1)).toBe(id);
    // Fixed: a change of the rule would change every consignment's id.
    expect(id).toMatchInlineSnapshot(`"0e3da61f-d768-8395-a722-7eee3ed9454a"`);
  });

  it("differs between shipments and between documents", async () => {
    const other = "7c0e9a51-2b3d-4e6f-8a9b-0c1d2e3f4a5b";
    const ids = new Set([
      await datasetId(DOCUMENT_UUID, 1),
      await datasetId(DOCUMENT_UUID, 2),
      await datasetId(other, 1),
      await datasetId(other, 2),
    ]);
    expect(ids.size).toBe(4);
  });
});

describe("a dataset id, version 2 (a document made since sharding)", () => {
  // Created 2026-06-05T10:00:00.000Z in bucket 0xabc.
  const SHARDED = newDocumentUuid(0xabc, Date.UTC(2026, 5, 5, 10));

  it("lives in its document's bucket and millisecond, and carries its shipment", async () => {
    for (const shipment of [1, 2, 100, MAX_ROUTABLE_SHIPMENT]) {
      const id = await datasetId(SHARDED, shipment);
      expect(id).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      expect(id.slice(0, 19)).toBe(SHARDED.slice(0, 19));
      expect(uuidBucket(id)).toBe(0xabc);
      expect(uuidCreatedAt(id)).toBe(Date.UTC(2026, 5, 5, 10));
      expect(datasetLocation(id)).toEqual({
        uuidPrefix: SHARDED.slice(0, 19),
        shipmentNumber: shipment,
      });
    }
  });

  it("is fixed forever", async () => {
    const uuid = "019da3b1-5c00-8abc-9d2e-0f1a2b3c4d5e";
    expect(await datasetId(uuid, 1)).toMatchInlineSnapshot(
      `"019da3b1-5c00-8abc-8018-e18f40b35bfa"`,
    );
    expect(await datasetId(uuid, 37)).toMatchInlineSnapshot(
      `"019da3b1-5c00-8abc-8255-735fc4f9a81b"`,
    );
  });

  it("differs between documents of the same millisecond and bucket", async () => {
    const other = `${SHARDED.slice(0, 19)}a000-000000000000`;
    expect(await datasetId(other, 1)).not.toBe(await datasetId(SHARDED, 1));
    expect((await datasetId(other, 1)).slice(0, 22)).toBe(
      (await datasetId(SHARDED, 1)).slice(0, 22),
    );
  });

  it("holds every shipment a document may list", () => {
    expect(GROUPED_SHIPMENTS.max).toBeLessThanOrEqual(MAX_ROUTABLE_SHIPMENT);
  });

  it("names no document when malformed, not version 8 or of shipment 0", () => {
    expect(datasetLocation("not-a-uuid")).toBeNull();
    expect(datasetLocation(DOCUMENT_UUID)).toBeNull();
    expect(datasetLocation("019da3b1-5c00-8abc-800e-0f1a2b3c4d5e")).toBeNull();
    expect(datasetLocation("019DA3B1-5C00-8ABC-801E-0F1A2B3C4D5E")).toBeNull();
  });

  it("keeps version 1 for a document issued before sharding (a version 4 uuid), which names no bucket of it", async () => {
    const id = await datasetId(DOCUMENT_UUID, 1);
    expect(id).toBe("0e3da61f-d768-8395-a722-7eee3ed9454a");
    expect(datasetLocation(id)?.uuidPrefix).not.toBe(
      DOCUMENT_UUID.slice(0, 19),
    );
  });
});
