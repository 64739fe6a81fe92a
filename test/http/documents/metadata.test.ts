import { describe, expect, it } from "vitest";
import { fullRequest } from "../../../fixtures/requests";
import { withIssuedDocument } from "../../helpers/documents-api";
import { expectContractError } from "../../helpers/error-contract";

// Metadata is the caller's own data, kept and returned as sent (docs/api.md, Document body):
// every own key, whatever its name, and never a prototype set from it.

const NOW = Date.UTC(2026, 10, 21, 9);

/** Keys that name prototypes in JavaScript, first, among ordinary ones. */
const METADATA = `{"__proto__":{"x":1,"polluted":true},"a":1,"constructor":{"prototype":{"polluted":true}},"prototype":[1],"nested":{"__proto__":{"y":2}}}`;

/** The full request as JSON text, with `metadata` as the given JSON text. */
const requestText = (metadata: string, reference = "META-1") => {
  const { metadata: _, ...rest } = fullRequest();
  rest.reference = reference;
  return `${JSON.stringify(rest).slice(0, -1)},"metadata":${metadata}}`;
};

/** The `metadata` of a result exactly as it was written in the answer. */
const metadataText = (result: string) =>
  JSON.stringify(JSON.parse(result).metadata);

describe("metadata with keys such as __proto__", () => {
  async function issued() {
    const setup = await withIssuedDocument(NOW);
    const send = (method: string, path: string, body: string) =>
      setup.request(path, {
        method,
        headers: {
          Authorization: `Bearer ${setup.owner.key}`,
          "Content-Type": "application/json",
        },
        body,
      });
    const created = await send(
      "POST",
      "/api/v1/documents",
      requestText(METADATA),
    );
    expect(created.status).toBe(201);
    return { ...setup, send, result: await created.text() };
  }

  it("returns every key as sent, in its order, from create and read", async () => {
    const { api, result } = await issued();
    expect(metadataText(result)).toBe(METADATA);
    const { uuid, reference } = JSON.parse(result);
    for (const address of [uuid, `ref/${reference}`]) {
      const read = await api.get(address);
      expect(metadataText(await read.text())).toBe(METADATA);
    }
  });

  it("keeps the keys in the request hash: a retry is recognised, another value conflicts", async () => {
    const { send, result } = await issued();
    const retry = await send(
      "POST",
      "/api/v1/documents",
      requestText(METADATA),
    );
    expect(retry.status).toBe(200);
    expect(JSON.parse(await retry.text()).uuid).toBe(JSON.parse(result).uuid);

    for (const other of [
      METADATA.replace('"x":1', '"x":2'),
      METADATA.replace('"nested":{"__proto__":{"y":2}}', '"nested":{}'),
      `{"a":1,"constructor":{"prototype":{"polluted":true}},"prototype":[1],"nested":{"__proto__":{"y":2}}}`,
    ]) {
      const conflict = await send(
        "POST",
        "/api/v1/documents",
        requestText(other),
      );
      expect(conflict.status).toBe(409);
      await expectContractError(conflict);
    }
  });

  it("keeps the keys through a correction", async () => {
    const { send, api, result } = await issued();
    const corrected = METADATA.replace('"x":1', '"x":3');
    const response = await send(
      "PUT",
      `/api/v1/documents/${JSON.parse(result).uuid}`,
      requestText(corrected, "META-2"),
    );
    expect(response.status).toBe(200);
    const correction = await response.text();
    expect(metadataText(correction)).toBe(corrected);
    const read = await api.get(JSON.parse(correction).uuid);
    expect(metadataText(await read.text())).toBe(corrected);
  });

  it("sets no prototype from client input", async () => {
    await issued();
    const plain: Record<string, unknown> = {};
    expect(plain.polluted).toBeUndefined();
    expect(plain.x).toBeUndefined();
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(Object.keys(Object.prototype)).toEqual([]);
  });

  it.each([
    [
      "the body",
      "__proto__",
      (body: string) => `{"__proto__":{"a":1},${body.slice(1)}`,
    ],
    [
      "a party",
      "shipper.__proto__",
      (body: string) =>
        body.replace('"shipper":{', '"shipper":{"__proto__":{"a":1},'),
    ],
  ])(
    "refuses a __proto__ key in %s as an unknown field",
    async (_, field, edit) => {
      const { send } = await issued();
      const response = await send(
        "POST",
        "/api/v1/documents",
        edit(requestText("null", "META-3")),
      );
      expect(response.status).toBe(422);
      expect(
        JSON.parse(await expectContractError(response)).errors,
      ).toContainEqual({
        field,
        code: "UNKNOWN_FIELD",
        message: expect.any(String),
      });
    },
  );
});
