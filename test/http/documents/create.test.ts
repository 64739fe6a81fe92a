import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  fullRequest,
  minimalRequest,
  type RequestBody,
} from "../../../fixtures/requests";
import { uuidCreatedAt } from "../../../src/domain/shard-routing";
import { createCredential } from "../../helpers/credentials";
import {
  comparable,
  documentsApi,
  sha256Of,
} from "../../helpers/documents-api";
import { rowsOfAllShards } from "../../helpers/shards";
import { call, callWithClock, fixedClock, ORIGIN } from "../../helpers/worker";

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 21, 9, 30);

async function storedObjects(): Promise<number> {
  return (await env.PDFS.list()).objects.length;
}

describe("POST /api/v1/documents", () => {
  it("issues a document: 201 with the result of docs/api.md, Document result (a real document)", async () => {
    const { key } = await createCredential();
    const response = await documentsApi(
      callWithClock(fixedClock(NOW)),
      key,
    ).create(fullRequest());
    expect(response.status).toBe(201);
    expect(response.headers.get("Cache-Control")).toBe("no-store, private");
    const result = (await response.json()) as RequestBody;
    expect(Object.keys(result)).toEqual([
      "uuid",
      "reference",
      "created_at",
      "url",
      "pdf",
      "pdf_download_url",
      "rectifies_uuid",
      "data",
      "metadata",
      "document_locale",
    ]);
    // RFC 9562 version 8: creation time and shard bucket, then random bits.
    expect(result.uuid).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(uuidCreatedAt(result.uuid)).toBe(Date.parse(result.created_at));
    expect(result.reference).toBe("PED-2026-0001");
    expect(result.created_at).toBe("2026-11-21T09:30:00.000Z");
    expect(result.url).toMatch(
      new RegExp(`^${ORIGIN}/d/${result.uuid}\\?k=[A-Za-z0-9_-]{22,}$`),
    );
    expect(result.pdf_download_url).toBe(
      `${ORIGIN}/api/v1/documents/${result.uuid}/pdf`,
    );
    expect(result.rectifies_uuid).toBeNull();
    expect(result.data.shipper.tax_id).toBe("B12345674");
    expect(result.data.goods.weight_kg).toBe("12345.678");
    expect(result.data).not.toHaveProperty("metadata");
    expect(result.metadata).toEqual(fullRequest().metadata);
    expect(result.document_locale).toBe("es");
    expect(result.pdf).toEqual({
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      size_bytes: expect.any(Number),
      pages: 1,
      seal: {
        level: "B-B",
        certificate_subject:
          "CN=DeCA sello de PRUEBAS (local), O=DeCA local, C=ES",
        timestamp: null,
      },
    });
  });

  it("stores a PDF whose bytes match pdf.sha256 and size_bytes", async () => {
    const { key } = await createCredential();
    const api = documentsApi(call, key);
    const result = await api.issue(minimalRequest());
    const download = await api.pdf(result.uuid);
    expect(download.status).toBe(200);
    const bytes = await download.arrayBuffer();
    expect(bytes.byteLength).toBe(result.pdf.size_bytes);
    expect(await sha256Of(bytes)).toBe(result.pdf.sha256);
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
  });

  it("prints in the organization's language at issue time", async () => {
    const owner = await createCredential();
    await rowsOfAllShards(
      "UPDATE organizations SET document_locale = 'eu' WHERE id = ?",
      owner.organizationId,
    );
    const result = await documentsApi(call, owner.key).issue(minimalRequest());
    expect(result.document_locale).toBe("eu");
  });

  it("issues a new document for every create without a reference", async () => {
    const { key } = await createCredential();
    const api = documentsApi(call, key);
    const first = await api.issue(minimalRequest());
    const second = await api.issue(minimalRequest());
    expect(second.uuid).not.toBe(first.uuid);
  });

  it("issues a document whose transport date is in the first century", async () => {
    const { key } = await createCredential();
    const response = await documentsApi(call, key).create({
      ...minimalRequest(),
      transport_date: "0099-12-31",
    });
    expect(response.status).toBe(201);
    const result = (await response.json()) as RequestBody;
    expect(result.data.transport_date).toBe("0099-12-31");
  });

  it("answers 401 before looking at the body", async () => {
    const response = await call("/api/v1/documents", {
      method: "POST",
      body: "{",
    });
    expect(response.status).toBe(401);
  });

  it("answers 400, 413 and 415 in the error body", async () => {
    const { key } = await createCredential();
    const post = (body: BodyInit, type = "application/json") =>
      call("/api/v1/documents", {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": type },
        body,
      });
    const malformed = await post("{not json");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({
      errors: [{ code: "MALFORMED_JSON", field: null }],
    });
    const large = await post(
      JSON.stringify({ observations: "x".repeat(131_072) }),
    );
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({
      errors: [{ code: "PAYLOAD_TOO_LARGE" }],
    });
    const text = await post("{}", "text/plain");
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({
      errors: [{ code: "UNSUPPORTED_MEDIA_TYPE" }],
    });
  });

  it("answers 422 listing every error in the contract's body", async () => {
    const { key } = await createCredential();
    const body = fullRequest();
    body.shipper.tax_id = "12345678A";
    body.goods.alternative_measure = { value: "1", unit: "m3" };
    body.vehicle.trailer_registration = "1234BCD";
    body.extra = true;
    const response = await documentsApi(call, key).create(body);
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      errors: [
        {
          field: "shipper.tax_id",
          code: "INVALID_TAX_ID",
          message: expect.any(String),
        },
        {
          field: "goods",
          code: "EXACTLY_ONE_REQUIRED",
          message: expect.any(String),
        },
        {
          field: "vehicle.trailer_registration",
          code: "INVALID_REGISTRATION",
          message: expect.any(String),
        },
        { field: "extra", code: "UNKNOWN_FIELD", message: expect.any(String) },
      ],
    });
  });

  it("never echoes a submitted value in a 422", async () => {
    const { key } = await createCredential();
    const body = fullRequest();
    body.reference = "secret value with spaces";
    body.metadata = "also-secret";
    const text = await (await documentsApi(call, key).create(body)).text();
    expect(text).not.toContain("secret value");
    expect(text).not.toContain("also-secret");
  });
});

describe("idempotent retries by reference", () => {
  it("answers an identical retry 200 with the original result and no new PDF", async () => {
    const { key } = await createCredential();
    const api = documentsApi(call, key);
    const original = await api.issue(fullRequest());
    const objects = await storedObjects();
    const reordered = Object.fromEntries(
      Object.entries(fullRequest()).reverse(),
    );
    const retry = await api.create(reordered);
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual(original);
    expect(await storedObjects()).toBe(objects);
  });

  it("answers 409 REFERENCE_CONFLICT for other data or metadata under a used reference", async () => {
    const { key } = await createCredential();
    const api = documentsApi(call, key);
    await api.issue(fullRequest());
    const otherData = fullRequest();
    otherData.goods.weight_kg = "1";
    const otherMetadata = fullRequest();
    otherMetadata.metadata.erp = "SAGE";
    for (const body of [otherData, otherMetadata]) {
      const response = await api.create(body);
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({
        errors: [
          {
            field: "reference",
            code: "REFERENCE_CONFLICT",
            message: expect.any(String),
          },
        ],
      });
    }
  });

  it("answers 409 for the reference of another credential of the organization, disclosing nothing", async () => {
    const owner = await createCredential();
    const colleague = await createCredential({
      organizationId: owner.organizationId,
    });
    await documentsApi(call, owner.key).issue(fullRequest());
    const sameBody = await documentsApi(call, colleague.key).create(
      fullRequest(),
    );
    expect(sameBody.status).toBe(409);
    const otherBody = fullRequest();
    otherBody.observations = "otra";
    const differentBody = await documentsApi(call, colleague.key).create(
      otherBody,
    );
    expect(await comparable(differentBody)).toEqual({
      ...(await comparable(sameBody)),
    });
  });

  it("keeps references apart per organization and per environment", async () => {
    const test = await createCredential();
    const live = await createCredential({
      organizationId: test.organizationId,
      environment: "live",
    });
    const otherOrganization = await createCredential();
    for (const key of [test.key, live.key, otherOrganization.key]) {
      expect((await documentsApi(call, key).create(fullRequest())).status).toBe(
        201,
      );
    }
  });

  it("answers 409 DOCUMENT_WINDOW_EXPIRED once the original is 24 hours old", async () => {
    const { key } = await createCredential();
    const clock = fixedClock(NOW);
    const api = documentsApi(callWithClock(clock), key);
    await api.issue(fullRequest());
    clock.set(NOW + 24 * HOUR - 1);
    expect((await api.create(fullRequest())).status).toBe(200);
    clock.set(NOW + 24 * HOUR);
    const expired = await api.create(fullRequest());
    expect(expired.status).toBe(409);
    expect(await expired.json()).toEqual({
      errors: [
        {
          field: "reference",
          code: "DOCUMENT_WINDOW_EXPIRED",
          message: expect.any(String),
        },
      ],
    });
  });

  it("answers 404 for the reference of a deleted document, and never releases it", async () => {
    const { key } = await createCredential();
    const api = documentsApi(call, key);
    const original = await api.issue(fullRequest());
    expect((await api.remove(original.uuid)).status).toBe(204);
    expect((await api.create(fullRequest())).status).toBe(404);
    const changed = fullRequest();
    changed.observations = "nueva";
    expect((await api.create(changed)).status).toBe(409);
  });
});

describe("concurrent creates with one reference", () => {
  it("issues exactly once for twenty identical requests", async () => {
    const { key } = await createCredential();
    const api = documentsApi(call, key);
    const body = fullRequest();
    body.reference = "CONCURRENT-SAME";
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => api.create(body)),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(19);
    const uuids = new Set(
      await Promise.all(
        responses.map(async (r) => ((await r.json()) as { uuid: string }).uuid),
      ),
    );
    expect(uuids.size).toBe(1);
    const rows = await rowsOfAllShards(
      "SELECT uuid FROM documents WHERE reference = ?",
      "CONCURRENT-SAME",
    );
    expect(rows).toHaveLength(1);
  });

  it("issues once and refuses the rest for twenty different bodies", async () => {
    const { key } = await createCredential();
    const api = documentsApi(call, key);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const body = fullRequest();
        body.reference = "CONCURRENT-DIFF";
        body.observations = `variante ${i}`;
        return api.create(body);
      }),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
  });
});

// Failures of each issuing step: faults.test.ts.
