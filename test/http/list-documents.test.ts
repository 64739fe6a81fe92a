import { describe, expect, it } from "vitest";
import { createCredential, type TestCredential } from "../helpers/credentials";
import { seedDocument } from "../helpers/documents";
import { bearer, call, callWithClock, fixedClock } from "../helpers/worker";

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 21, 12);

interface ListBody {
  data: Record<string, unknown>[];
  meta: {
    current_page: number;
    limit: number;
    total: number;
    last_page: number;
  };
}

function lister(owner: TestCredential) {
  const request = callWithClock(fixedClock(NOW));
  return async (
    query = "",
  ): Promise<{ response: Response; body: ListBody }> => {
    const response = await request(
      `/api/v1/documents${query}`,
      bearer(owner.key),
    );
    return { response, body: (await response.json()) as ListBody };
  };
}

describe("GET /api/v1/documents", () => {
  it("answers an empty list for a new credential, uncacheable", async () => {
    const { key } = await createCredential();
    const response = await call("/api/v1/documents", bearer(key));
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store, private");
    expect(response.headers.get("X-Request-Id")).toBeTruthy();
    expect(await response.text()).toBe(
      '{"data":[],"meta":{"current_page":1,"limit":25,"total":0,"last_page":1}}',
    );
  });

  it("lists summaries newest first, uuid descending between equal times", async () => {
    const owner = await createCredential();
    const older = await seedDocument(owner, {
      createdAt: NOW - 2 * HOUR,
      reference: "REF-1",
    });
    const tieA = await seedDocument(owner, {
      uuid: "00000000-0000-4000-8000-00000000000a",
      createdAt: NOW - HOUR,
    });
    const tieB = await seedDocument(owner, {
      uuid: "00000000-0000-4000-8000-00000000000b",
      createdAt: NOW - HOUR,
      rectifiesUuid: older,
      transportDate: "2026-11-22",
    });
    const { body } = await lister(owner)();
    expect(body.data.map((d) => d.uuid)).toEqual([tieB, tieA, older]);
    expect(body.data[0]).toEqual({
      uuid: tieB,
      reference: null,
      created_at: new Date(NOW - HOUR).toISOString(),
      transport_date: "2026-11-22",
      rectifies_uuid: older,
    });
    expect(body.data[2]).toMatchObject({
      reference: "REF-1",
      rectifies_uuid: null,
    });
    expect(body.meta).toEqual({
      current_page: 1,
      limit: 25,
      total: 3,
      last_page: 1,
    });
  });

  it("shows only documents created less than 24 hours ago", async () => {
    const owner = await createCredential();
    const inside = await seedDocument(owner, {
      createdAt: NOW - 24 * HOUR + 1,
    });
    await seedDocument(owner, { createdAt: NOW - 24 * HOUR });
    const { body } = await lister(owner)();
    expect(body.data.map((d) => d.uuid)).toEqual([inside]);
    expect(body.meta.total).toBe(1);
  });

  it("leaves out deleted documents and those of other credentials", async () => {
    const owner = await createCredential();
    const colleague = await createCredential({
      organizationId: owner.organizationId,
    });
    const visible = await seedDocument(owner, { createdAt: NOW - HOUR });
    await seedDocument(owner, { createdAt: NOW - HOUR, deletedAt: NOW - 1 });
    await seedDocument(colleague, { createdAt: NOW - HOUR });
    const { body } = await lister(owner)();
    expect(body.data.map((d) => d.uuid)).toEqual([visible]);
  });

  it("filters by transport date, both ends inclusive", async () => {
    const owner = await createCredential();
    for (const date of [
      "2026-11-20",
      "2026-11-21",
      "2026-11-22",
      "2026-11-23",
    ]) {
      await seedDocument(owner, { createdAt: NOW - HOUR, transportDate: date });
    }
    const { body } = await lister(owner)("?from=2026-11-21&to=2026-11-22");
    expect(body.data.map((d) => d.transport_date).sort()).toEqual([
      "2026-11-21",
      "2026-11-22",
    ]);
    const fromOnly = await lister(owner)("?from=2026-11-23");
    expect(fromOnly.body.meta.total).toBe(1);
  });

  it("pages with meta, and answers a page past the last with no data", async () => {
    const owner = await createCredential();
    for (let i = 0; i < 5; i++) {
      await seedDocument(owner, { createdAt: NOW - HOUR + i });
    }
    const list = lister(owner);
    const second = await list("?page=2&limit=2");
    expect(second.body.data).toHaveLength(2);
    expect(second.body.meta).toEqual({
      current_page: 2,
      limit: 2,
      total: 5,
      last_page: 3,
    });
    const last = await list("?page=3&limit=2");
    expect(last.body.data).toHaveLength(1);
    const past = await list("?page=9&limit=2&unknown=ignored");
    expect(past.response.status).toBe(200);
    expect(past.body).toEqual({
      data: [],
      meta: { current_page: 9, limit: 2, total: 5, last_page: 3 },
    });
  });

  it.each([
    ["page=0", "page", "INVALID_VALUE"],
    ["page=-1", "page", "INVALID_VALUE"],
    ["page=01", "page", "INVALID_FORMAT"],
    ["page=1.0", "page", "INVALID_FORMAT"],
    ["page=", "page", "INVALID_FORMAT"],
    ["limit=0", "limit", "INVALID_VALUE"],
    ["limit=101", "limit", "INVALID_VALUE"],
    ["limit=ten", "limit", "INVALID_FORMAT"],
    ["from=2026-02-30", "from", "INVALID_DATE"],
    ["from=0099-02-29", "from", "INVALID_DATE"],
    ["to=21-11-2026", "to", "INVALID_DATE"],
    ["from=2026-11-22&to=2026-11-21", "to", "INVALID_RANGE"],
  ])("answers 422 for %s", async (query, field, code) => {
    const owner = await createCredential();
    const { response, body } = await lister(owner)(`?${query}`);
    expect(response.status).toBe(422);
    expect(body).toEqual({
      errors: [{ field, code, message: expect.any(String) }],
    });
  });

  it.each([
    ["page=1&page=2", "page"],
    ["limit=10&limit=10", "limit"],
    ["from=2026-11-21&from=2026-11-22", "from"],
    ["to=2026-11-21&to=2026-11-21", "to"],
  ])(
    "answers 422 naming a parameter given more than once: %s",
    async (query, field) => {
      const owner = await createCredential();
      const { response, body } = await lister(owner)(`?${query}`);
      expect(response.status).toBe(422);
      expect(body).toEqual({
        errors: [
          {
            field,
            code: "INVALID_TYPE",
            message: "The parameter is given more than once.",
          },
        ],
      });
    },
  );

  it("ignores an unknown parameter given more than once", async () => {
    const owner = await createCredential();
    const { response } = await lister(owner)("?utm=a&utm=b");
    expect(response.status).toBe(200);
  });

  it("lists every invalid parameter at once", async () => {
    const owner = await createCredential();
    const { response, body } = await lister(owner)("?page=0&limit=500&from=x");
    expect(response.status).toBe(422);
    expect(
      (body as unknown as { errors: { field: string }[] }).errors.map(
        (e) => e.field,
      ),
    ).toEqual(["page", "limit", "from"]);
  });

  it.each([
    "from=0000-02-29&to=0099-12-31",
    "from=0004-02-29",
    "to=0100-01-01",
  ])("accepts dates of the first centuries: %s", async (query) => {
    const owner = await createCredential();
    const { response, body } = await lister(owner)(`?${query}`);
    expect(response.status).toBe(200);
    expect(body.data).toEqual([]);
  });

  it("accepts the largest limit and a one-day range", async () => {
    const owner = await createCredential();
    const { response } = await lister(owner)(
      "?limit=100&from=2026-11-21&to=2026-11-21",
    );
    expect(response.status).toBe(200);
  });
});
