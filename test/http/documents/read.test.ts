import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fullRequest, minimalRequest } from "../../../fixtures/requests";
import { createCredential } from "../../helpers/credentials";
import {
  comparable,
  documentsApi,
  sha256Of,
  withIssuedDocument,
} from "../../helpers/documents-api";

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 21, 8);
const NEVER_ISSUED = "00000000-0000-4000-8000-000000000000";

const setup = () => withIssuedDocument(NOW);

describe("GET /api/v1/documents/{uuid} and /ref/{reference}", () => {
  it("answers the same result as the create, at both addresses", async () => {
    const { api, document } = await setup();
    for (const address of [document.uuid, `ref/${document.reference}`]) {
      const response = await api.get(address);
      expect(response.status).toBe(200);
      expect(response.headers.get("Cache-Control")).toBe("no-store, private");
      expect(await response.json()).toEqual(document);
    }
  });

  it("answers one identical 404 for unknown, foreign, deleted and old documents", async () => {
    const { clock, request, api, document, owner } = await setup();
    const reference = await comparable(await api.get(NEVER_ISSUED));
    expect(reference.status).toBe(404);
    expect(JSON.parse(reference.body)).toEqual({
      errors: [{ field: null, code: "NOT_FOUND", message: expect.any(String) }],
    });

    const colleague = await createCredential({
      organizationId: owner.organizationId,
    });
    const otherOrganization = await createCredential();
    const live = await createCredential({
      organizationId: owner.organizationId,
      environment: "live",
    });
    for (const other of [colleague, otherOrganization, live]) {
      const foreign = documentsApi(request, other.key);
      expect(await comparable(await foreign.get(document.uuid))).toEqual(
        reference,
      );
      expect(
        await comparable(await foreign.get(`ref/${document.reference}`)),
      ).toEqual(reference);
    }
    expect(await comparable(await api.get("not-a-uuid"))).toEqual(reference);
    expect(await comparable(await api.get("ref/not_a_reference"))).toEqual(
      reference,
    );
    expect(await comparable(await api.get("ref/UNUSED-REF"))).toEqual(
      reference,
    );

    const deleted = await api.issue(minimalRequest());
    expect((await api.remove(deleted.uuid)).status).toBe(204);
    expect(await comparable(await api.get(deleted.uuid))).toEqual(reference);

    clock.set(NOW + 24 * HOUR - 1);
    expect((await api.get(document.uuid)).status).toBe(200);
    clock.set(NOW + 24 * HOUR);
    expect(await comparable(await api.get(document.uuid))).toEqual(reference);
  });

  it("never follows a reference to a later correction", async () => {
    const { api, document } = await setup();
    const correction = fullRequest();
    correction.reference = "PED-2026-0001-B";
    expect((await api.rectify(document.uuid, correction)).status).toBe(200);
    const byReference = (await (
      await api.get(`ref/${document.reference}`)
    ).json()) as { uuid: string };
    expect(byReference.uuid).toBe(document.uuid);
  });

  it("reads a reference spelled like an operation of a document", async () => {
    const { api } = await setup();
    for (const reference of ["pdf", "status", "qr"]) {
      const issued = await api.issue({ ...fullRequest(), reference });
      const response = await api.get(`ref/${reference}`);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { uuid: string }).uuid).toBe(
        issued.uuid,
      );
    }
  });
});

describe("GET .../status", () => {
  it("answers active, then deleted, within the read window only", async () => {
    const { clock, api } = await setup();
    const document = await api.issue(minimalRequest());
    const status = async (address: string) => {
      const response = await api.status(address);
      return { code: response.status, body: await response.json() };
    };
    expect(await status(document.uuid)).toEqual({
      code: 200,
      body: { status: "active" },
    });
    await api.remove(document.uuid);
    expect(await status(document.uuid)).toEqual({
      code: 200,
      body: { status: "deleted" },
    });
    clock.set(NOW + 24 * HOUR);
    expect((await status(document.uuid)).code).toBe(404);
  });

  it("answers by reference, and 404 for another credential", async () => {
    const { request, api, document } = await setup();
    expect(
      await (await api.status(`ref/${document.reference}`)).json(),
    ).toEqual({ status: "active" });
    const stranger = await createCredential();
    expect(
      (await documentsApi(request, stranger.key).status(document.uuid)).status,
    ).toBe(404);
  });
});

describe("GET .../pdf", () => {
  it("returns exactly the stored bytes with PDF headers", async () => {
    const { api, document } = await setup();
    for (const address of [document.uuid, `ref/${document.reference}`]) {
      const response = await api.pdf(address);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("application/pdf");
      expect(response.headers.get("Content-Length")).toBe(
        String(document.pdf.size_bytes),
      );
      expect(response.headers.get("Cache-Control")).toBe("no-store, private");
      expect(await sha256Of(await response.arrayBuffer())).toBe(
        document.pdf.sha256,
      );
    }
  });

  it("is refused after 24 hours and for a deleted document", async () => {
    const { clock, api, document } = await setup();
    const deleted = await api.issue(minimalRequest());
    await api.remove(deleted.uuid);
    expect((await api.pdf(deleted.uuid)).status).toBe(404);
    clock.set(NOW + 24 * HOUR);
    expect((await api.pdf(document.uuid)).status).toBe(404);
  });

  it("serves bytes that the R2 object does not show in clear", async () => {
    const { document } = await setup();
    const object = await env.PDFS.get(`documents/${document.uuid}.pdf`);
    const stored = new Uint8Array(await (object as R2ObjectBody).arrayBuffer());
    expect(new TextDecoder("latin1").decode(stored)).not.toContain("%PDF");
  });
});
