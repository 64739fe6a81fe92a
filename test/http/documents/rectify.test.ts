import { describe, expect, it } from "vitest";
import { fullRequest } from "../../../fixtures/requests";
import { fixtureSeal } from "../../../fixtures/seal";
import type { RectifiedVersion } from "../../../src/domain/documents/render-port";
import { changedFields } from "../../../src/pdf/changed-fields";
import { printedData } from "../../../src/pdf/printed-fields";
import { renderDocumentPdf } from "../../../src/pdf/render-document";
import { isDocumentLocale } from "../../../src/schemas/document-locale";
import type { DocumentData } from "../../../src/schemas/document-request";
import { createCredential } from "../../helpers/credentials";
import {
  documentsApi,
  qrPath,
  sha256Of,
  withIssuedDocument,
} from "../../helpers/documents-api";
import { rowsOfAllShards } from "../../helpers/shards";

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 21, 7);

function corrected(reference: string | null = "PED-2026-0001-B") {
  const body = fullRequest();
  body.reference = reference;
  body.goods.weight_kg = "13000";
  return body;
}

async function setup() {
  const { document: original, ...rest } = await withIssuedDocument(NOW);
  return { ...rest, original };
}

describe("PUT /api/v1/documents/{uuid}", () => {
  it("issues a new version that rectifies the original, which stays with its QR", async () => {
    const { clock, request, api, original } = await setup();
    clock.advance(60_000);
    const response = await api.rectify(original.uuid, corrected());
    expect(response.status).toBe(200);
    const correction = (await response.json()) as typeof original;
    expect(correction.uuid).not.toBe(original.uuid);
    expect(correction.rectifies_uuid).toBe(original.uuid);
    expect(correction.reference).toBe("PED-2026-0001-B");
    expect(correction.created_at).toBe(new Date(NOW + 60_000).toISOString());
    expect(correction.data).toMatchObject({ goods: { weight_kg: "13000" } });
    expect(correction.url).not.toBe(original.url);
    expect(await (await api.get(original.uuid)).json()).toEqual(original);
    const originalQr = await request(qrPath(original.url));
    expect(originalQr.status).toBe(200);
    expect(await sha256Of(await originalQr.arrayBuffer())).toBe(
      original.pdf.sha256,
    );
  });

  it("corrects by reference too, with or without a new reference", async () => {
    const { api, original } = await setup();
    const response = await api.rectify(
      `ref/${original.reference}`,
      corrected(null),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      reference: null,
      rectifies_uuid: original.uuid,
    });
  });

  it("refuses the reference of the corrected document with a 422 on reference", async () => {
    const { api, original } = await setup();
    const response = await api.rectify(
      original.uuid,
      corrected(original.reference),
    );
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      errors: [
        {
          field: "reference",
          code: "INVALID_VALUE",
          message: expect.any(String),
        },
      ],
    });
  });

  it("refuses a reference used by another document with 409 REFERENCE_CONFLICT", async () => {
    const { api, original } = await setup();
    const other = fullRequest();
    other.reference = "OTHER-REF";
    await api.issue(other);
    const response = await api.rectify(original.uuid, corrected("OTHER-REF"));
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      errors: [{ field: "reference", code: "REFERENCE_CONFLICT" }],
    });
  });

  it("answers an identical retry with the existing correction, at either address", async () => {
    const { api, original } = await setup();
    const first = await (await api.rectify(original.uuid, corrected())).json();
    for (const address of [original.uuid, `ref/${original.reference}`]) {
      const retry = await api.rectify(address, corrected());
      expect(retry.status).toBe(200);
      expect(await retry.json()).toEqual(first);
    }
  });

  it("refuses changed data on an already rectified version", async () => {
    const { api, original } = await setup();
    await api.rectify(original.uuid, corrected());
    const changed = corrected();
    changed.observations = "otra corrección";
    const response = await api.rectify(original.uuid, changed);
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      errors: [
        {
          field: null,
          code: "DOCUMENT_ALREADY_RECTIFIED",
          message: expect.any(String),
        },
      ],
    });
  });

  it("answers DOCUMENT_WINDOW_EXPIRED to a retry 24 hours after the correction", async () => {
    const { clock, api, original } = await setup();
    clock.set(NOW + HOUR);
    await api.rectify(original.uuid, corrected());
    clock.set(NOW + 25 * HOUR - 1);
    expect((await api.rectify(original.uuid, corrected())).status).toBe(200);
    clock.set(NOW + 25 * HOUR);
    const response = await api.rectify(original.uuid, corrected());
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      errors: [
        {
          field: null,
          code: "DOCUMENT_WINDOW_EXPIRED",
          message: expect.any(String),
        },
      ],
    });
  });

  it("corrects a document older than 24 hours, answering the new version", async () => {
    const { clock, api, original } = await setup();
    clock.set(NOW + 30 * HOUR);
    expect((await api.get(original.uuid)).status).toBe(404);
    const response = await api.rectify(original.uuid, corrected());
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      rectifies_uuid: original.uuid,
    });
  });

  it("answers 404 for a deleted document and for a retry whose correction was deleted", async () => {
    const { api, original } = await setup();
    const deleted = fullRequest();
    deleted.reference = "TO-DELETE";
    const victim = await api.issue(deleted);
    await api.remove(victim.uuid);
    expect((await api.rectify(victim.uuid, corrected("X-1"))).status).toBe(404);

    const correction = (await (
      await api.rectify(original.uuid, corrected())
    ).json()) as { uuid: string };
    expect((await api.remove(correction.uuid)).status).toBe(204);
    expect((await api.rectify(original.uuid, corrected())).status).toBe(404);
  });

  it("answers 404 for another credential's document", async () => {
    const { request, original } = await setup();
    const stranger = await createCredential();
    expect(
      (
        await documentsApi(request, stranger.key).rectify(
          original.uuid,
          corrected(),
        )
      ).status,
    ).toBe(404);
  });

  it("issues one correction when corrections race", async () => {
    const { api, original } = await setup();
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) => {
        const body = corrected(`RACE-${i}`);
        return api.rectify(original.uuid, body);
      }),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
    const rows = await rowsOfAllShards(
      "SELECT uuid FROM documents WHERE rectifies_uuid = ?",
      original.uuid,
    );
    expect(rows).toHaveLength(1);
  });
});

// The text of a PDF cannot be read inside workerd (no poppler there): this
// shows that the stored PDF is, byte for byte, the renderer's output for the
// correction with the version it rectifies, whose printed change list the
// pdf project reads back (test/pdf/render-document.test.ts, "a correction").
describe("the PDF of a correction", () => {
  it("is rendered with the data of the version it rectifies, a plate written otherwise being no change", async () => {
    const { clock, api, original } = await setup();
    clock.advance(60_000);
    const body = corrected();
    body.vehicle.registration = "5678 dfg";
    body.vehicle.trailer_registration = "R-1234-BCD";
    const response = await api.rectify(original.uuid, body);
    expect(response.status).toBe(200);
    const correction = (await response.json()) as typeof original;
    const download = await api.pdf(correction.uuid);
    expect(download.status).toBe(200);
    const stored = new Uint8Array(await download.arrayBuffer());

    const locale = correction.document_locale;
    if (!isDocumentLocale(locale)) throw new Error(`locale ${locale}`);
    const data = correction.data as DocumentData;
    const rendered = async (rectifies: RectifiedVersion) =>
      (
        await renderDocumentPdf({
          data,
          uuid: correction.uuid,
          createdAt: Date.parse(correction.created_at),
          rectifies,
          qrUrl: correction.url,
          // The test environment's seal of the tests' SEAL_KEYRING.
          seal: fixtureSeal("test"),
          locale,
          environment: "test",
        })
      ).bytes;
    const previous = original.data as DocumentData;
    expect(changedFields(printedData(previous), printedData(data))).toEqual([
      {
        kind: "shipment field",
        shipment: null,
        field: "goods.weight_kg",
        before: "12.345,678 kg",
        after: "13.000 kg",
      },
      {
        kind: "field",
        field: "vehicle.registration",
        before: "1234BCD (ES)",
        after: "5678DFG (ES)",
      },
    ]);
    expect(stored).toEqual(
      await rendered({ uuid: original.uuid, data: previous }),
    );
    // The previous data makes a difference: without a change, another PDF.
    expect(stored).not.toEqual(await rendered({ uuid: original.uuid, data }));
  });
});
