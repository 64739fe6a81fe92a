import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { minimalRequest } from "../../fixtures/requests";
import { countingD1Queries } from "../helpers/counting-bindings";
import { createCredential } from "../helpers/credentials";
import { documentsApi } from "../helpers/documents-api";
import { rowsOfAllShards } from "../helpers/shards";
import { insertEndpoint, webhookWorld } from "../helpers/webhooks";
import { HEAVY_TEST_MS } from "../helpers/worker";

// What one invocation of the consumer may hold (docs/webhooks.md
// "Deliveries"): six POSTs in flight, each timed from its own start, and at
// most 1,000 D1 queries, however many deliveries a batch brings.

const NOW = Date.UTC(2026, 10, 21, 9);
const CONNECTIONS = 6;

/** Resolves after `ms` of real time. */
const realDelay = (ms: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Rejects with the signal's reason once it aborts, as fetch does. */
const aborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason));
  });

const attemptsOf = (credentialId: string) =>
  rowsOfAllShards(
    "SELECT e.url, a.error, a.status_code FROM webhook_attempts a JOIN webhook_endpoints e ON e.id = a.endpoint_id WHERE a.credential_id = ?",
    credentialId,
  ) as Promise<
    { url: string; error: string | null; status_code: number | null }[]
  >;

describe("an invocation's POSTs", () => {
  it("has at most six POSTs in flight", async () => {
    let inFlight = 0;
    let most = 0;
    const world = webhookWorld(NOW, async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await realDelay(20);
      inFlight--;
      return new Response("ok");
    });
    const owner = await createCredential();
    for (let i = 0; i < 16; i++) {
      await insertEndpoint(owner.id, {
        url: `https://erp.test/${i}`,
        createdAt: NOW,
      });
    }
    await documentsApi(world.request(), owner.key).issue(minimalRequest());
    await world.consumeDue();
    expect(world.receiver.received).toHaveLength(16);
    expect(most).toBe(CONNECTIONS);
  });

  it(
    "starts each POST's 10 s when it is sent: one queued behind slow receivers is delivered",
    async () => {
      // As a Worker fetches: six connections wait for headers, the rest
      // queue; a request whose signal expired while queued times out unsent.
      let inFlight = 0;
      const queued: (() => void)[] = [];
      const world = webhookWorld(NOW, async (received, _, signal) => {
        if (inFlight >= CONNECTIONS) {
          await new Promise<void>((resolve) => queued.push(resolve));
        }
        inFlight++;
        try {
          if (signal.aborted) throw signal.reason;
          if (received.url.includes("/slow/")) return await aborted(signal);
          // A healthy receiver answers within a fraction of a second.
          await Promise.race([realDelay(200), aborted(signal)]);
          return new Response("ok");
        } finally {
          inFlight--;
          queued.shift()?.();
        }
      });
      const owner = await createCredential();
      for (let i = 0; i < CONNECTIONS; i++) {
        await insertEndpoint(owner.id, {
          url: `https://erp.test/slow/${i}`,
          createdAt: NOW - 1,
        });
      }
      await insertEndpoint(owner.id, {
        url: "https://erp.test/healthy",
        createdAt: NOW,
      });
      await documentsApi(world.request(), owner.key).issue(minimalRequest());
      await world.consumeBatch();
      const attempts = await attemptsOf(owner.id);
      expect(attempts.filter(({ error }) => error === "timeout")).toHaveLength(
        CONNECTIONS,
      );
      expect(attempts.find(({ url }) => url.endsWith("/healthy"))).toEqual({
        url: "https://erp.test/healthy",
        error: null,
        status_code: 200,
      });
    },
    HEAVY_TEST_MS,
  );

  it(
    "keeps each batch within 1,000 D1 queries, 100 announcements to 16 endpoints each, and delivers every one once",
    async () => {
      const world = webhookWorld(NOW);
      const owner = await createCredential();
      for (let i = 0; i < 16; i++) {
        await insertEndpoint(owner.id, {
          url: `https://erp.test/${i}`,
          createdAt: NOW,
        });
      }
      const api = documentsApi(world.request(), owner.key);
      for (let i = 0; i < 100; i++) {
        await api.issue({ ...minimalRequest(), reference: null });
      }
      expect(world.queue.waiting).toHaveLength(100);
      const batches: number[] = [];
      for (;;) {
        const counted = countingD1Queries(env);
        if (!(await world.consumeBatch(counted.bindings))) break;
        batches.push(counted.queries());
      }
      expect(Math.max(...batches)).toBeLessThan(1000);
      const received = world.receiver.received;
      expect(received).toHaveLength(1600);
      expect(new Set(received.map(({ url, id }) => `${url} ${id}`)).size).toBe(
        1600,
      );
    },
    HEAVY_TEST_MS,
  );
});
