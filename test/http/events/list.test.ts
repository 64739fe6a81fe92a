import { describe, expect, it } from "vitest";
import {
  createCredential,
  type TestCredential,
} from "../../helpers/credentials";
import { expectContractError } from "../../helpers/error-contract";
import { demoCaller, seedEvent } from "../../helpers/event-rows";
import { bearer, callWithClock, fixedClock } from "../../helpers/worker";

const NOW = Date.UTC(2026, 10, 21, 12);
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

interface EventList {
  data: { id: string; type: string; [field: string]: unknown }[];
  has_more: boolean;
}

const request = callWithClock(fixedClock(NOW));

async function list(owner: TestCredential, query = "") {
  const response = await request(`/api/v1/events${query}`, bearer(owner.key));
  return { response, body: (await response.json()) as EventList };
}

const idsOf = (body: EventList) => body.data.map((event) => event.id);

/** The ids of `count` events of `owner`, the newest first (one a minute). */
async function seedEvents(owner: TestCredential, count: number) {
  const rows = [];
  for (let index = 0; index < count; index++) {
    rows.push(
      await seedEvent(owner, { createdAt: NOW - (index + 1) * MINUTE }),
    );
  }
  return rows.map((row) => row.id);
}

/** The validation errors of a query, as `[field, code]`. */
async function refusal(owner: TestCredential, query: string) {
  const response = await request(`/api/v1/events${query}`, bearer(owner.key));
  expect(response.status).toBe(422);
  await expectContractError(response.clone());
  const { errors } = (await response.json()) as {
    errors: { field: string; code: string }[];
  };
  return errors.map((error) => [error.field, error.code]);
}

describe("GET /api/v1/events", () => {
  it("lists the key's events newest first, as a delivery posts them", async () => {
    const owner = await createCredential();
    const original = await seedEvent(owner, {
      createdAt: NOW - 2 * MINUTE,
      reference: "PED-2026-0001",
      documentCreatedAt: NOW - 2 * MINUTE,
    });
    const accessed = await seedEvent(owner, {
      type: "document.accessed",
      createdAt: NOW - MINUTE,
      documentUuid: original.documentUuid,
      reference: "PED-2026-0001",
      documentCreatedAt: NOW - 2 * MINUTE,
      firstAccess: true,
    });
    const { response, body } = await list(owner);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store, private");
    const facts = {
      uuid: original.documentUuid,
      reference: "PED-2026-0001",
      rectifies_uuid: null,
      created_at: new Date(NOW - 2 * MINUTE).toISOString(),
      transport_date: "2026-11-21",
    };
    expect(body).toEqual({
      data: [
        {
          id: accessed.id,
          type: "document.accessed",
          created_at: new Date(NOW - MINUTE).toISOString(),
          environment: "test",
          data: {
            ...facts,
            accessed_at: new Date(NOW - MINUTE).toISOString(),
            first: true,
            // A row without accessed_via: written before gates read documents.
            via: "qr",
          },
        },
        {
          id: original.id,
          type: "document.issued",
          created_at: facts.created_at,
          environment: "test",
          data: facts,
        },
      ],
      has_more: false,
    });
  });

  it("answers an empty page for a key without events", async () => {
    const owner = await createCredential();
    const { response, body } = await list(owner);
    expect(response.status).toBe(200);
    expect(body).toEqual({ data: [], has_more: false });
  });

  it("pages with starting_after and has_more, 10 a page by default", async () => {
    const owner = await createCredential();
    const ids = await seedEvents(owner, 12);
    const first = await list(owner);
    expect(idsOf(first.body)).toEqual(ids.slice(0, 10));
    expect(first.body.has_more).toBe(true);
    const second = await list(owner, `?starting_after=${ids[9]}`);
    expect(idsOf(second.body)).toEqual(ids.slice(10));
    expect(second.body.has_more).toBe(false);

    const pages: string[][] = [];
    let after = "";
    for (;;) {
      const { body } = await list(owner, `?limit=5${after}`);
      pages.push(idsOf(body));
      if (!body.has_more) break;
      after = `&starting_after=${body.data.at(-1)?.id}`;
    }
    expect(pages).toEqual([ids.slice(0, 5), ids.slice(5, 10), ids.slice(10)]);
    // A page that ends exactly at the last event says no more follow.
    const exact = await list(owner, `?limit=2&starting_after=${ids[9]}`);
    expect(idsOf(exact.body)).toEqual(ids.slice(10));
    expect(exact.body.has_more).toBe(false);
  });

  it("orders events of the same millisecond by id, descending, and pages through them", async () => {
    const owner = await createCredential();
    // Ids of this test only (the tests share their storage), in order.
    const prefix = [...crypto.getRandomValues(new Uint8Array(10))]
      .map((byte) => byte.toString(16).padStart(2, "0"))
      .join("");
    const ids = ["01", "02", "03", "04"].map((n) => `evt_${prefix}00${n}`);
    for (const id of ids) {
      await seedEvent(owner, { id, createdAt: NOW - MINUTE });
    }
    const later = await seedEvent(owner, { createdAt: NOW - 1 });
    const earlier = await seedEvent(owner, { createdAt: NOW - 2 * MINUTE });
    const all = [later.id, ...[...ids].reverse(), earlier.id];
    expect(idsOf((await list(owner)).body)).toEqual(all);
    const first = await list(owner, "?limit=2");
    expect(idsOf(first.body)).toEqual(all.slice(0, 2));
    const second = await list(owner, `?limit=2&starting_after=${all[1]}`);
    expect(idsOf(second.body)).toEqual(all.slice(2, 4));
    const third = await list(owner, `?limit=2&starting_after=${all[3]}`);
    expect(idsOf(third.body)).toEqual(all.slice(4));
    expect(third.body.has_more).toBe(false);
  });

  it("filters by type and by document, with the cursor", async () => {
    const owner = await createCredential();
    const document = crypto.randomUUID();
    const issued = await seedEvent(owner, {
      documentUuid: document,
      createdAt: NOW - 3 * MINUTE,
    });
    const deleted = await seedEvent(owner, {
      type: "document.deleted",
      documentUuid: document,
      createdAt: NOW - 2 * MINUTE,
    });
    const otherIssued = await seedEvent(owner, { createdAt: NOW - MINUTE });
    const byType = await list(owner, "?type=document.issued");
    expect(idsOf(byType.body)).toEqual([otherIssued.id, issued.id]);
    const byDocument = await list(owner, `?document_uuid=${document}`);
    expect(idsOf(byDocument.body)).toEqual([deleted.id, issued.id]);
    const both = await list(
      owner,
      `?document_uuid=${document}&type=document.deleted`,
    );
    expect(idsOf(both.body)).toEqual([deleted.id]);
    // The cursor need not be of the filtered type.
    const after = await list(
      owner,
      `?type=document.issued&starting_after=${deleted.id}`,
    );
    expect(idsOf(after.body)).toEqual([issued.id]);
    expect((await list(owner, "?type=ping")).body.data).toEqual([]);
  });

  it("lists no event 30 days old or more, even before the purge, and no other key's", async () => {
    const owner = await createCredential();
    const colleague = await createCredential({
      organizationId: owner.organizationId,
    });
    const kept = await seedEvent(owner, { createdAt: NOW - 30 * DAY + 1 });
    const expired = await seedEvent(owner, { createdAt: NOW - 30 * DAY });
    const foreign = await seedEvent(colleague, { createdAt: NOW - MINUTE });
    expect(idsOf((await list(owner)).body)).toEqual([kept.id]);
    // Neither is a cursor for this key.
    for (const id of [expired.id, foreign.id]) {
      expect(await refusal(owner, `?starting_after=${id}`)).toEqual([
        ["starting_after", "INVALID_VALUE"],
      ]);
    }
  });

  it("refuses each invalid parameter with 422 naming it, and ignores unknown ones", async () => {
    const owner = await createCredential();
    await seedEvent(owner, { createdAt: NOW - MINUTE });
    const refusals: [string, string[][]][] = [
      ["?limit=0", [["limit", "INVALID_VALUE"]]],
      ["?limit=101", [["limit", "INVALID_VALUE"]]],
      ["?limit=ten", [["limit", "INVALID_FORMAT"]]],
      ["?limit=1&limit=2", [["limit", "INVALID_TYPE"]]],
      ["?type=document.printed", [["type", "INVALID_VALUE"]]],
      ["?document_uuid=PED-2026-0001", [["document_uuid", "INVALID_FORMAT"]]],
      ["?starting_after=42", [["starting_after", "INVALID_FORMAT"]]],
      [
        "?starting_after=evt_0123456789abcdef01234567",
        [["starting_after", "INVALID_VALUE"]],
      ],
      [
        "?limit=0&type=x",
        [
          ["limit", "INVALID_VALUE"],
          ["type", "INVALID_VALUE"],
        ],
      ],
    ];
    for (const [query, errors] of refusals) {
      expect(await refusal(owner, query), query).toEqual(errors);
    }
    const { response, body } = await list(owner, "?limit=100&page=3&sort=asc");
    expect(response.status).toBe(200);
    expect(body.data).toHaveLength(1);
  });

  it("answers 401 without a key, and 403 DEMO_NOT_ALLOWED to a demo token", async () => {
    const anonymous = await request("/api/v1/events");
    expect(anonymous.status).toBe(401);
    await expectContractError(anonymous);
    const demo = await demoCaller(request, NOW);
    const refused = await demo.request("/api/v1/events", bearer(demo.key));
    expect(refused.status).toBe(403);
    const { errors } = JSON.parse(await expectContractError(refused));
    expect(errors).toEqual([
      {
        field: null,
        code: "DEMO_NOT_ALLOWED",
        message: expect.stringContaining("Demo tokens have no events"),
      },
    ]);
  });
});
