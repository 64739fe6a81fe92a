import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fullRequest, minimalRequest } from "../../fixtures/requests";
import { eventsHome } from "../../src/domain/events/home";
import { createCredential } from "../helpers/credentials";
import {
  type DocumentResultBody,
  documentsApi,
  qrPath,
} from "../helpers/documents-api";
import { d1Lost, d1Refuses } from "../helpers/faults";
import { rowsOfAllShards, shards } from "../helpers/shards";
import {
  insertEndpoint,
  type SendFault,
  webhookWorld,
} from "../helpers/webhooks";

// Every write and send that carries an event fails in turn, before it is
// applied and applied with its answer lost (docs/failures.md); the request
// is retried as a caller would, then the queue's consumer and the cron do
// what they do. Each fact that committed has exactly one event in its
// credential's home shard, delivered (duplicates only with the same
// webhook-id); none that did not commit has one.

const NOW = Date.UTC(2026, 10, 23, 9);
const MINUTE = 60_000;

const FAULTS = [
  { fault: "fails before it is applied", bindings: d1Refuses },
  { fault: "is applied and its answer lost", bindings: d1Lost },
] as const;

const SENDS: SendFault[] = ["before", "lost"];

beforeEach(() => {
  // The failures are logged; the tests read the rows.
  vi.spyOn(console, "error").mockImplementation(() => {});
  vi.spyOn(console, "log").mockImplementation(() => {});
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** A fact: its type, its document, and for an access whether it was the first. */
type Fact = [type: string, uuid: string, first: boolean | null];

const key = ([type, uuid, first]: Fact) => `${type} ${uuid} ${first}`;

/** A world with a credential, one endpoint for every type, and the documents API. */
async function setUp(answer?: Parameters<typeof webhookWorld>[1]) {
  const world = webhookWorld(NOW, answer);
  const owner = await createCredential();
  const endpoint = await insertEndpoint(owner.id, { createdAt: NOW });
  const api = (bindings?: Env) =>
    documentsApi(world.request(bindings), owner.key);
  /** What the consumer and the cron finish, a few minutes on. */
  async function settle() {
    await world.consumeDue();
    for (let run = 0; run < 2; run++) {
      world.clock.advance(2 * MINUTE);
      await world.cron();
      await world.consumeDue();
    }
  }
  /** Exactly one event of each fact, relayed, delivered under its own id only. */
  async function expectEventsOf(facts: Fact[]) {
    const events = await eventsHome(owner.id)(shards)
      .prepare(
        "SELECT id, type, document_uuid, first_access FROM events WHERE credential_id = ?",
      )
      .bind(owner.id)
      .all<{
        id: string;
        type: string;
        document_uuid: string;
        first_access: number | null;
      }>();
    const stored = events.results.map((row) => ({
      id: row.id,
      fact: key([
        row.type,
        row.document_uuid,
        row.first_access === null ? null : row.first_access === 1,
      ]),
    }));
    expect(stored.map((row) => row.fact).sort()).toEqual(facts.map(key).sort());
    expect(
      await rowsOfAllShards(
        "SELECT id FROM event_outbox WHERE credential_id = ? AND relayed_at IS NULL",
        owner.id,
      ),
    ).toEqual([]);
    const received = world.receiver.received;
    for (const { id, fact } of stored) {
      const posted = received.filter((delivery) => {
        const event = JSON.parse(delivery.body);
        return (
          key([
            event.type,
            event.data.uuid,
            event.type === "document.accessed" ? event.data.first : null,
          ]) === fact
        );
      });
      expect(posted.length, fact).toBeGreaterThan(0);
      expect(new Set(posted.map((delivery) => delivery.id)), fact).toEqual(
        new Set([id]),
      );
    }
    expect(received.length).toBeGreaterThanOrEqual(stored.length);
    expect(
      await rowsOfAllShards(
        "SELECT status FROM webhook_deliveries WHERE endpoint_id = ?",
        endpoint.id,
      ),
    ).toEqual(stored.map(() => ({ status: "delivered" })));
  }
  return { world, api, settle, expectEventsOf };
}

describe.each(FAULTS)("a fact's commit that $fault", ({ bindings }) => {
  it("a create: its retry, the consumer and the cron give one document.issued", async () => {
    const { api, settle, expectEventsOf } = await setUp();
    const first = await api(bindings(/insert into "documents"/)).create(
      fullRequest(),
    );
    expect([201, 503]).toContain(first.status);
    const retry = await api().create(fullRequest());
    expect([200, 201]).toContain(retry.status);
    const { uuid } = (await retry.json()) as DocumentResultBody;
    await settle();
    await expectEventsOf([["document.issued", uuid, null]]);
  });

  it("a correction: one document.issued and one document.rectified", async () => {
    const { api, settle, expectEventsOf } = await setUp();
    const original = await api().issue(minimalRequest());
    const correction = { ...minimalRequest(), reference: "CORR-1" };
    const first = await api(
      bindings(/update "documents" set "rectified_by_uuid"/),
    ).rectify(original.uuid, correction);
    expect([200, 503]).toContain(first.status);
    const retry = await api().rectify(original.uuid, correction);
    expect(retry.status).toBe(200);
    const { uuid } = (await retry.json()) as DocumentResultBody;
    await settle();
    await expectEventsOf([
      ["document.issued", original.uuid, null],
      ["document.issued", uuid, null],
      ["document.rectified", original.uuid, null],
    ]);
  });

  it("a deletion: one document.deleted", async () => {
    const { api, settle, expectEventsOf } = await setUp();
    const document = await api().issue(minimalRequest());
    const first = await api(
      bindings(/update "documents" set "deleted_at"/),
    ).remove(document.uuid);
    expect([204, 503]).toContain(first.status);
    expect((await api().remove(document.uuid)).status).toBe(204);
    await settle();
    await expectEventsOf([
      ["document.issued", document.uuid, null],
      ["document.deleted", document.uuid, null],
    ]);
  });

  it("a first QR access: one first document.accessed", async () => {
    const { world, api, settle, expectEventsOf } = await setUp();
    const document = await api().issue(minimalRequest());
    const faulty = bindings(/update "documents" set "first_qr_access_at"/);
    const scan = await world.request(faulty)(qrPath(document.url));
    expect([200, 503]).toContain(scan.status);
    expect((await world.request()(qrPath(document.url))).status).toBe(200);
    await settle();
    // Applied, the first scan was the first access, and the second, within
    // its minute, is not written.
    await expectEventsOf([
      ["document.issued", document.uuid, null],
      ["document.accessed", document.uuid, true],
    ]);
  });
});

describe.each(SENDS)(
  "a send to the events queue that fails %s it is sent",
  (how) => {
    it("the announcement: the cron relays the event, delivered once", async () => {
      const { world, api, settle, expectEventsOf } = await setUp();
      world.queue.failSends(how);
      const document = await api().issue(minimalRequest());
      world.queue.failSends(null);
      await settle();
      await expectEventsOf([["document.issued", document.uuid, null]]);
    });

    it("a retry's message: the delivery is tried again with the same webhook-id", async () => {
      const { world, api, settle, expectEventsOf } = await setUp((_, index) =>
        index === 0
          ? new Response("busy", { status: 503 })
          : new Response("ok"),
      );
      const document = await api().issue(minimalRequest());
      world.queue.failSends(how);
      await world.consumeDue();
      world.queue.failSends(null);
      await settle();
      expect(world.receiver.received.length).toBeGreaterThanOrEqual(2);
      await expectEventsOf([["document.issued", document.uuid, null]]);
    });
  },
);

describe.each(FAULTS)("in the relay, a write that $fault", ({ bindings }) => {
  const WRITES = [
    { write: "the home shard's batch", sql: /insert into "events"/ },
    { write: "the outbox's relayed mark", sql: /update "event_outbox"/ },
    { write: "the attempt's record", sql: /insert into "webhook_attempts"/ },
  ];
  it.each(WRITES)("$write: one event, delivered", async ({ sql }) => {
    const { world, api, settle, expectEventsOf } = await setUp();
    const document = await api().issue(minimalRequest());
    await world.consumeDue(bindings(sql));
    await settle();
    await expectEventsOf([["document.issued", document.uuid, null]]);
  });
});
