import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fullRequest, minimalRequest } from "../../../fixtures/requests";
import { createCredential } from "../../helpers/credentials";
import {
  deletion,
  documentsApi,
  qrPath,
  withIssuedDocument,
} from "../../helpers/documents-api";
import { shardOf } from "../../helpers/shards";

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 21, 6);

const setup = () => withIssuedDocument(NOW);

const deletedAt = async (uuid: string) =>
  (
    await shardOf(uuid)
      .prepare("SELECT deleted_at FROM documents WHERE uuid = ?")
      .bind(uuid)
      .first<{ deleted_at: number }>()
  )?.deleted_at;

async function expectConflict(response: Response, code: string) {
  expect(response.status).toBe(409);
  expect(await response.json()).toEqual({
    errors: [{ field: null, code, message: expect.any(String) }],
  });
}

describe("DELETE /api/v1/documents/{uuid}", () => {
  it("deletes logically: 204, gone from reads and lists, kept in storage", async () => {
    const { clock, api, document } = await setup();
    clock.set(NOW + 2 * HOUR - 1);
    const response = await api.remove(document.uuid);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect((await api.get(document.uuid)).status).toBe(404);
    expect(await (await api.list()).json()).toMatchObject({
      data: [],
      meta: { total: 0 },
    });
    expect(
      await env.PDFS.head(`documents/${document.uuid}.pdf`),
    ).not.toBeNull();
    expect(await deletedAt(document.uuid)).toBe(NOW + 2 * HOUR - 1);
  });

  it("deletes by reference", async () => {
    const { api, document } = await setup();
    expect((await api.remove(`ref/${document.reference}`)).status).toBe(204);
    expect(await (await api.status(document.uuid)).json()).toEqual({
      status: "deleted",
    });
  });

  it("answers a repeated delete 204 within the window, keeping the first time, then 404", async () => {
    const { clock, api, document } = await setup();
    clock.set(NOW + HOUR);
    await api.remove(document.uuid);
    clock.set(NOW + 2 * HOUR - 1);
    expect((await api.remove(document.uuid)).status).toBe(204);
    expect(await deletedAt(document.uuid)).toBe(NOW + HOUR);
    clock.set(NOW + 2 * HOUR);
    expect((await api.remove(document.uuid)).status).toBe(404);
  });

  it("answers DELETE_WINDOW_EXPIRED at exactly 2 hours", async () => {
    const { clock, api, document } = await setup();
    clock.set(NOW + 2 * HOUR);
    await expectConflict(
      await api.remove(document.uuid),
      "DELETE_WINDOW_EXPIRED",
    );
  });

  it("refuses when the caller cannot confirm, one code per confirmation", async () => {
    const { api, document } = await setup();
    await expectConflict(
      await api.remove(
        document.uuid,
        deletion({ confirm_not_delivered: false }),
      ),
      "DOCUMENT_ALREADY_DELIVERED",
    );
    await expectConflict(
      await api.remove(document.uuid, deletion({ confirm_not_used: false })),
      "DOCUMENT_ALREADY_USED",
    );
    await expectConflict(
      await api.remove(
        document.uuid,
        deletion({ confirm_not_delivered: false, confirm_not_used: false }),
      ),
      "DOCUMENT_ALREADY_DELIVERED",
    );
  });

  it("refuses a rectified version, and deletes the correction", async () => {
    const { api, document } = await setup();
    const body = fullRequest();
    body.reference = "PED-2026-0001-B";
    const correction = (await (
      await api.rectify(document.uuid, body)
    ).json()) as { uuid: string };
    await expectConflict(
      await api.remove(document.uuid),
      "DOCUMENT_ALREADY_RECTIFIED",
    );
    expect((await api.remove(correction.uuid)).status).toBe(204);
  });

  it("refuses once the QR link was used, but not after a HEAD", async () => {
    const { request, api, document } = await setup();
    const other = await api.issue(minimalRequest());
    expect((await request(qrPath(other.url), { method: "HEAD" })).status).toBe(
      200,
    );
    expect((await api.remove(other.uuid)).status).toBe(204);
    expect((await request(qrPath(document.url))).status).toBe(200);
    await expectConflict(
      await api.remove(document.uuid),
      "DOCUMENT_ALREADY_ACCESSED",
    );
  });

  it("checks the window before the confirmations", async () => {
    const { clock, api, document } = await setup();
    clock.set(NOW + 3 * HOUR);
    await expectConflict(
      await api.remove(
        document.uuid,
        deletion({ confirm_not_delivered: false }),
      ),
      "DELETE_WINDOW_EXPIRED",
    );
  });

  it("answers 422 for an invalid body, 400 without one, 404 for another's document", async () => {
    const { request, owner, api, document } = await setup();
    const invalid = await api.remove(document.uuid, {
      reason: "",
      confirm_not_used: "yes",
    });
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toEqual({
      errors: [
        { field: "reason", code: "TOO_SHORT", message: expect.any(String) },
        {
          field: "confirm_not_delivered",
          code: "REQUIRED",
          message: expect.any(String),
        },
        {
          field: "confirm_not_used",
          code: "INVALID_TYPE",
          message: expect.any(String),
        },
      ],
    });
    const bare = await request(`/api/v1/documents/${document.uuid}`, {
      method: "DELETE",
      headers: { Authorization: `Bearer ${owner.key}` },
    });
    expect(bare.status).toBe(400);
    expect(await bare.json()).toMatchObject({
      errors: [{ code: "MALFORMED_JSON" }],
    });
    const stranger = await createCredential();
    expect(
      (await documentsApi(request, stranger.key).remove(document.uuid)).status,
    ).toBe(404);
  });

  it("keeps the reference reserved after deletion", async () => {
    const { api, document } = await setup();
    await api.remove(document.uuid);
    const reused = fullRequest();
    reused.observations = "nuevo pedido";
    expect((await api.create(reused)).status).toBe(409);
  });
});
