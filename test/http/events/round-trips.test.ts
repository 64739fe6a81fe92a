import {
  createExecutionContext,
  env,
  waitOnExecutionContext,
} from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiApp } from "../../../src/api-app";
import { renderDocumentPdf } from "../../../src/pdf/render-document";
import { checkedAgainstContract } from "../../helpers/contract";
import { CallLedger, countingBindings } from "../../helpers/counting-bindings";
import {
  createCredential,
  type TestCredential,
} from "../../helpers/credentials";
import {
  recordingQueue,
  seedDelivery,
  seedEndpoint,
  seedEvent,
} from "../../helpers/event-rows";
import { bearer, fixedClock, ORIGIN } from "../../helpers/worker";
import { roundTrips } from "../../roundtrips/round-trip-table";

// Neither the list nor a redelivery reads every shard: each is one D1 call
// in the key's home shard after authentication, 2 sequential calls in all,
// like the document list (docs/performance.md, Round trips).

const NOW = Date.UTC(2026, 10, 21, 12);
const ledger = new CallLedger();
const queue = recordingQueue(env);
const bindings = countingBindings(queue.bindings, ledger);
const app = createApiApp({
  clock: fixedClock(NOW),
  renderPdf: renderDocumentPdf,
});

async function measured(path: string, init: RequestInit) {
  const request = new Request(`${ORIGIN}${path}`, init);
  const context = createExecutionContext();
  const { answer, calls } = await ledger.measureRequest(
    async () => app.fetch(request, bindings, context),
    () => waitOnExecutionContext(context),
  );
  const response = await checkedAgainstContract(request, answer);
  expect(response.status).toBeLessThan(300);
  return roundTrips(path, calls);
}

describe("the events API's round trips", () => {
  let owner: TestCredential;
  let eventId: string;

  beforeAll(async () => {
    owner = await createCredential();
    for (let minute = 1; minute <= 3; minute++) {
      const event = await seedEvent(owner, {
        createdAt: NOW - minute * 60_000,
      });
      eventId = event.id;
    }
    const endpoint = await seedEndpoint(owner);
    const event = await seedEvent(owner, { createdAt: NOW - 4 * 60_000 });
    await seedDelivery(owner, event, endpoint, { status: "failed" });
    // The key has been here before: its first request warmed the isolate.
    await measured("/api/v1/events", bearer(owner.key));
  });

  it("lists, pages, shows and redelivers in 2 sequential calls, one of them in D1 after authentication", async () => {
    const figures = [
      await measured("/api/v1/events", bearer(owner.key)),
      await measured(
        `/api/v1/events?limit=1&type=document.issued&starting_after=${eventId}`,
        bearer(owner.key),
      ),
      await measured(`/api/v1/events/${eventId}`, bearer(owner.key)),
      await measured(`/api/v1/events/${eventId}/redeliver`, {
        method: "POST",
        ...bearer(owner.key),
      }),
    ];
    for (const figure of figures) {
      expect(figure, figure.operation).toMatchObject({
        sequential: 2,
        path: expect.stringMatching(
          /^RATE_LIMITER consume \+ D1 select credentials → D1 (select events|batch\(\d\))(;|$)/,
        ),
      });
    }
    expect(queue.sent).toHaveLength(1);
  });
});
