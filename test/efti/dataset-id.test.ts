import { describe, expect, it } from "vitest";
import { datasetId } from "../../src/domain/efti/dataset-id";
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
