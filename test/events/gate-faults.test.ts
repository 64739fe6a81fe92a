import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { minimalRequest } from "../../fixtures/requests";
import { withdrawnIdentifierXml } from "../../src/domain/efti/subsets";
import { createCredential } from "../helpers/credentials";
import {
  type DocumentResultBody,
  documentsApi,
} from "../helpers/documents-api";
import {
  datasetOf,
  gated,
  identifiersOf,
  registrationsOf,
} from "../helpers/efti-gate";
import { d1Lost, d1Refuses } from "../helpers/faults";
import { opsClient, opsJson } from "../helpers/ops";
import { type SendFault, webhookWorld } from "../helpers/webhooks";

// The writes and sends of a registration fail in turn, before they are
// applied and applied with their answer lost (docs/failures.md); the request
// is retried as a caller would, then the queue's consumer and the cron do
// what they do. Every registration of a fact that committed ends sent, the
// gate's last PUT of each dataset is the document's state, and a fact that
// did not commit registered nothing. Alone: the cron reads every shard.

const NOW = Date.UTC(2026, 10, 25, 9);
const MINUTE = 60_000;

const FAULTS = [
  { fault: "fails before it is applied", bindings: d1Refuses },
  { fault: "is applied and its answer lost", bindings: d1Lost },
] as const;

const SENDS: SendFault[] = ["before", "lost"];

beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation(() => {});
  vi.spyOn(console, "log").mockImplementation(() => {});
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function setUp(gateAnswer?: Parameters<typeof webhookWorld>[2]) {
  const world = webhookWorld(NOW, undefined, gateAnswer);
  // Only live documents are registered.
  const owner = await createCredential({ environment: "live" });
  const api = (bindings: Env = gated()) =>
    documentsApi(world.request(bindings), owner.key);
  /** What the consumer and the cron finish, a few minutes on. */
  async function settle() {
    await world.consumeDue(gated());
    for (let run = 0; run < 2; run++) {
      world.clock.advance(2 * MINUTE);
      await world.cron(gated());
      await world.consumeDue(gated());
    }
  }
  /** Every registration of `uuid` sent, and the gate's last PUT of each dataset is `bodies`'. */
  async function expectRegistered(
    uuid: string,
    bodies: Map<string, string>,
    rows: number,
  ) {
    const registrations = await registrationsOf(uuid);
    expect(registrations).toHaveLength(rows);
    expect(registrations.filter((row) => row.sent_at === null)).toEqual([]);
    for (const [datasetId, body] of bodies) {
      const puts = world.gate.received.filter(
        (put) => datasetOf(put) === datasetId,
      );
      expect(puts.at(-1)?.body, datasetId).toBe(body);
    }
  }
  return { world, api, settle, expectRegistered };
}

describe.each(FAULTS)("a commit that $fault", ({ bindings }) => {
  it("a create: its retry, the consumer and the cron register its dataset once it committed", async () => {
    const { api, settle, expectRegistered } = await setUp();
    const first = await api(gated(bindings(/insert into "documents"/))).create(
      minimalRequest(),
    );
    expect([201, 503]).toContain(first.status);
    const retry = await api().create(minimalRequest());
    expect([200, 201]).toContain(retry.status);
    const { uuid } = (await retry.json()) as DocumentResultBody;
    await settle();
    await expectRegistered(uuid, await identifiersOf(uuid), 1);
  });

  it("a deletion: its datasets withdrawn at the gate, written once", async () => {
    const { api, settle, expectRegistered } = await setUp();
    const document = await api().issue(minimalRequest());
    const ids = [...(await identifiersOf(document.uuid)).keys()];
    const first = await api(
      gated(bindings(/update "documents" set "deleted_at"/)),
    ).remove(document.uuid);
    expect([204, 503]).toContain(first.status);
    expect((await api().remove(document.uuid)).status).toBe(204);
    await settle();
    await expectRegistered(
      document.uuid,
      new Map(ids.map((id) => [id, withdrawnIdentifierXml()])),
      2,
    );
  });
});

describe.each(SENDS)("an announcement that fails %s it is sent", (how) => {
  it("the cron sends the registration again a minute on, and it is sent", async () => {
    const { world, api, settle, expectRegistered } = await setUp();
    world.queue.failSends(how);
    const document = await api().issue(minimalRequest());
    world.queue.failSends(null);
    await settle();
    await expectRegistered(
      document.uuid,
      await identifiersOf(document.uuid),
      1,
    );
  });
});

describe("a mark of sent rows whose write", () => {
  it.each(FAULTS)(
    "$fault: the next message PUTs the same state again, and it ends sent",
    async ({ bindings }) => {
      const { world, api, settle, expectRegistered } = await setUp();
      const document = await api().issue(minimalRequest());
      await world.consumeDue(
        gated(bindings(/update "efti_registrations" set "sent_at"/)),
      );
      await settle();
      await expectRegistered(
        document.uuid,
        await identifiersOf(document.uuid),
        1,
      );
    },
  );
});

describe("a gate down for longer than the message's retries", () => {
  it("the cron sends again what stays unsent, once the gate answers", async () => {
    let down = true;
    const { world, api, settle, expectRegistered } = await setUp(() =>
      down ? new Response("down", { status: 502 }) : new Response("ok"),
    );
    const document = await api().issue(minimalRequest());
    await world.consumeDue(gated());
    // The queue gives the message up (here: it is dropped).
    world.queue.waiting.splice(0);
    expect(
      (await registrationsOf(document.uuid)).map((row) => row.sent_at),
    ).toEqual([null]);
    down = false;
    await settle();
    await expectRegistered(
      document.uuid,
      await identifiersOf(document.uuid),
      1,
    );
  });
});

describe("a gate that refuses a registration for good", () => {
  it.each([400, 404])(
    "%i: parked, sent again neither by its message nor by the cron, listed by the operations API, sent again by its retry once the cause is fixed",
    async (status) => {
      let refusing = true;
      const { world, api, settle } = await setUp(() =>
        refusing ? new Response("no", { status }) : new Response("ok"),
      );
      const document = await api().issue(minimalRequest());
      const bodies = await identifiersOf(document.uuid);
      const [id = ""] = bodies.keys();
      const puts = () =>
        world.gate.received.filter((put) => datasetOf(put) === id);
      await settle();
      expect(puts()).toHaveLength(1);
      const [row] = await registrationsOf(document.uuid);
      expect(row).toEqual(
        expect.objectContaining({
          sent_at: null,
          attempts: 1,
          last_status: status,
          parked_at: NOW,
        }),
      );
      const ops = opsClient(world.withQueue(gated()));
      const parked = async () => {
        const response = await ops(
          `/ops/v1/efti/registrations?state=parked&dataset_id=${id}`,
        );
        expect(response.status).toBe(200);
        return ((await response.json()) as { data: unknown[] }).data;
      };
      expect(await parked()).toEqual([
        {
          id: row?.id,
          dataset_id: id,
          document_uuid: document.uuid,
          created_at: new Date(NOW).toISOString(),
          attempts: 1,
          last_status: status,
          next_attempt_at: null,
          parked_at: new Date(NOW).toISOString(),
        },
      ]);
      refusing = false;
      const retry = await ops(
        "/ops/v1/efti/registrations/retry",
        opsJson("POST", { dataset_id: id }),
      );
      expect(retry.status).toBe(200);
      expect(await retry.json()).toEqual({ retried: 1 });
      await world.consumeDue(gated());
      expect(puts()).toHaveLength(2);
      expect(puts()[1]?.body).toBe(bodies.get(id));
      expect(await registrationsOf(document.uuid)).toEqual([
        expect.objectContaining({
          sent_at: world.clock.now(),
          parked_at: null,
        }),
      ]);
      expect(await parked()).toEqual([]);
    },
  );
});

describe("a gate down across cron runs", () => {
  it("one chain of attempts a registration: the cron starts none beside its message's, and attempts space out", async () => {
    const { world, api } = await setUp(
      () => new Response("down", { status: 502 }),
    );
    const document = await api().issue(minimalRequest());
    const waitingRegistrations = () =>
      world.queue.waiting.filter(
        ({ body }) => body.kind === "efti_registration",
      );
    await world.consumeDue(gated());
    const runs = 10;
    for (let run = 0; run < runs; run++) {
      world.clock.advance(2 * MINUTE);
      await world.consumeDue(gated());
      await world.cron(gated());
      await world.consumeDue(gated());
      expect(waitingRegistrations().length).toBeLessThanOrEqual(1);
    }
    const puts = world.gate.received.length;
    // Backed off to minutes apart: fewer attempts than cron runs.
    expect(puts).toBeLessThan(runs);
    const [row] = await registrationsOf(document.uuid);
    expect(row).toEqual(
      expect.objectContaining({
        sent_at: null,
        parked_at: null,
        attempts: puts,
        last_status: 502,
      }),
    );
    expect(row?.next_attempt_at).toBeGreaterThan(world.clock.now());
  });

  it("a message for a registration not yet due sends nothing", async () => {
    const { world, api } = await setUp(
      () => new Response("busy", { status: 503 }),
    );
    const document = await api().issue(minimalRequest());
    await world.consumeDue(gated());
    expect(world.gate.received).toHaveLength(1);
    const [row] = await registrationsOf(document.uuid);
    expect(row?.next_attempt_at).toBeGreaterThan(NOW);
    // Another message for it (a cron's, or an announcement's), before then.
    await world.queue.binding.sendBatch([
      { body: { kind: "efti_registration", documentUuids: [document.uuid] } },
    ]);
    await world.consumeDue(gated());
    expect(world.gate.received).toHaveLength(1);
    world.clock.advance((row?.next_attempt_at ?? NOW) - NOW);
    await world.consumeDue(gated());
    expect(world.gate.received).toHaveLength(2);
  });
});

describe("a registration sent", () => {
  it("is kept as long as its document: the cron's purge of events past their retention leaves it", async () => {
    const { world, api } = await setUp();
    const document = await api().issue(minimalRequest());
    await world.consumeDue(gated());
    world.clock.advance(31 * 24 * 60 * MINUTE);
    await world.cron(gated());
    expect(await registrationsOf(document.uuid)).toEqual([
      expect.objectContaining({ sent_at: NOW }),
    ]);
  });
});
