import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { groupedRequest, minimalRequest } from "../../fixtures/requests";
import {
  FREE_PLAN_SERVICE_CALLS,
  FREE_PLAN_SUBREQUESTS,
} from "../../src/domain/free-plan";
import { GROUPED_SHIPMENTS } from "../../src/schemas/document-request";
import { countingServiceCalls } from "../helpers/counting-bindings";
import { createCredential } from "../helpers/credentials";
import { documentsApi } from "../helpers/documents-api";
import { datasetOf, gated, registrationsOf } from "../helpers/efti-gate";
import {
  insertEndpoint,
  MAX_BATCH_SIZE,
  webhookWorld,
} from "../helpers/webhooks";
import { HEAVY_TEST_MS } from "../helpers/worker";

// Each invocation within the Workers Free plan's counts (docs/operations.md
// "On the Workers Free plan"): at most 50 requests to the internet (webhook
// POSTs, eFTI gate PUTs) and 1,000 calls to Cloudflare's services (D1
// queries, R2, Durable Objects, queue sends), for the queue consumer's
// batches of wrangler.toml's max_batch_size and for a cron run.

const NOW = Date.UTC(2026, 10, 29, 9);

beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation(() => {});
  vi.spyOn(console, "log").mockImplementation(() => {});
});

afterEach(() => {
  vi.restoreAllMocks();
});

type World = ReturnType<typeof webhookWorld>;

/** What one batch of the consumer did, or null when no message was due. */
interface Batch {
  messages: number;
  subrequests: number;
  serviceCalls: number;
}

/** Hands the consumer one batch of what is due on `bindings`, counted. */
async function countedBatch(
  world: World,
  bindings: Env = env,
): Promise<Batch | null> {
  const now = world.clock.now();
  const due = world.queue.waiting.filter(({ visibleAt }) => visibleAt <= now);
  const sent = world.receiver.received.length + world.gate.received.length;
  const sends = world.queue.sends();
  const counted = countingServiceCalls(bindings);
  if (!(await world.consumeBatch(counted.bindings))) return null;
  return {
    messages: Math.min(due.length, MAX_BATCH_SIZE),
    subrequests:
      world.receiver.received.length + world.gate.received.length - sent,
    serviceCalls: counted.calls() + world.queue.sends() - sends,
  };
}

/** Every batch until the queue is empty, the clock moved on to each retry. */
async function everyBatch(world: World, bindings?: Env): Promise<Batch[]> {
  const batches: Batch[] = [];
  for (let round = 0; round < 50; round++) {
    const batch = await countedBatch(world, bindings);
    if (batch) {
      batches.push(batch);
      continue;
    }
    const next = Math.min(...world.queue.waiting.map((m) => m.visibleAt));
    if (!Number.isFinite(next)) return batches;
    world.clock.set(next);
  }
  throw new Error("the queue never emptied");
}

describe("on the Workers Free plan, an invocation of the queue consumer", () => {
  it(
    "POSTs at most 50 deliveries in a batch of max_batch_size delivery messages, within 1,000 service calls, and delivers every one once",
    async () => {
      const world = webhookWorld(NOW);
      const owner = await createCredential();
      // The relay's own attempts, then more delivery messages than a batch holds.
      const endpoints = 2 * MAX_BATCH_SIZE;
      for (let i = 0; i < endpoints; i++) {
        await insertEndpoint(owner.id, {
          url: `https://erp.test/${i}`,
          createdAt: NOW,
        });
      }
      await documentsApi(world.request(), owner.key).issue(minimalRequest());
      const batches = await everyBatch(world);
      expect(batches.map(({ messages }) => messages)).toContain(MAX_BATCH_SIZE);
      for (const batch of batches) {
        expect(batch.subrequests).toBeLessThanOrEqual(FREE_PLAN_SUBREQUESTS);
        expect(batch.serviceCalls).toBeLessThanOrEqual(FREE_PLAN_SERVICE_CALLS);
      }
      const urls = world.receiver.received.map(({ url }) => url);
      expect(urls).toHaveLength(endpoints);
      expect(new Set(urls).size).toBe(endpoints);
    },
    HEAVY_TEST_MS,
  );

  it(
    "PUTs at most 50 datasets to the eFTI gate however many one message brings, within 1,000 service calls, and registers every one once",
    async () => {
      const world = webhookWorld(NOW);
      const owner = await createCredential({ environment: "live" });
      const document = await documentsApi(
        world.request(gated()),
        owner.key,
      ).issue(groupedRequest(GROUPED_SHIPMENTS.max));
      const batches = await everyBatch(world, gated());
      for (const batch of batches) {
        expect(batch.subrequests).toBeLessThanOrEqual(FREE_PLAN_SUBREQUESTS);
        expect(batch.serviceCalls).toBeLessThanOrEqual(FREE_PLAN_SERVICE_CALLS);
      }
      const rows = await registrationsOf(document.uuid);
      expect(rows).toHaveLength(GROUPED_SHIPMENTS.max);
      expect(rows.filter(({ sent_at }) => sent_at === null)).toEqual([]);
      const datasets = world.gate.received.map(datasetOf);
      expect(datasets).toHaveLength(GROUPED_SHIPMENTS.max);
      expect(new Set(datasets).size).toBe(GROUPED_SHIPMENTS.max);
    },
    HEAVY_TEST_MS,
  );
});

describe("on the Workers Free plan, a cron run", () => {
  it(
    "sends nothing to the internet and stays within 1,000 service calls with lost messages to send again",
    async () => {
      const world = webhookWorld(NOW);
      const owner = await createCredential({ environment: "live" });
      await insertEndpoint(owner.id, { createdAt: NOW });
      const api = documentsApi(world.request(gated()), owner.key);
      for (let i = 0; i < 5; i++) {
        await api.issue({ ...minimalRequest(), reference: null });
      }
      // Every announcement lost: the cron sends them again.
      world.queue.waiting.splice(0);
      world.clock.advance(5 * 60_000);
      const fetched = vi.spyOn(globalThis, "fetch");
      const counted = countingServiceCalls(gated());
      const sends = world.queue.sends();
      await world.cron(counted.bindings);
      expect(world.queue.waiting.length).toBeGreaterThan(0);
      expect(fetched).not.toHaveBeenCalled();
      expect(counted.calls() + world.queue.sends() - sends).toBeLessThanOrEqual(
        FREE_PLAN_SERVICE_CALLS,
      );
    },
    HEAVY_TEST_MS,
  );
});
