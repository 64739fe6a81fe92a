import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/db/client";
import { type EventRow, events } from "../../../src/db/schema";
import {
  credentialBucket,
  shardOfBucket,
} from "../../../src/domain/shard-routing";
import {
  createCredential,
  type TestCredential,
} from "../../helpers/credentials";
import {
  deliveriesOf,
  newEventId,
  recordingQueue,
  seedEndpoint,
} from "../../helpers/event-rows";
import { shards } from "../../helpers/shards";
import { bearer, callWithClock, fixedClock } from "../../helpers/worker";

// While a rebalance from 2 to 4 shards runs, a key whose home bucket moves
// has its event log in its former home shard, in its new one, or mid-move
// in both: the events API finds each event once, wherever it is.

const FROM = 2;
const NOW = Date.UTC(2026, 10, 21, 12);
const MINUTE = 60_000;

/** A key whose home shard is another under 4 shards than under 2. */
async function movingKey(): Promise<TestCredential> {
  for (;;) {
    const owner = await createCredential();
    const bucket = credentialBucket({ id: owner.id, environment: "test" });
    if (shardOfBucket(bucket, 4) >= FROM) return owner;
  }
}

describe("the events API while a rebalance moves the key's home", () => {
  it("lists, pages, shows and redelivers events in either home shard, each once", async () => {
    const owner = await movingKey();
    const bucket = credentialBucket({ id: owner.id, environment: "test" });
    const former = openDatabase(
      shards[shardOfBucket(bucket, FROM)] as D1Database,
    );
    const current = openDatabase(
      shards[shardOfBucket(bucket, 4)] as D1Database,
    );
    const event = (minutes: number): EventRow => ({
      id: newEventId(),
      type: "document.issued",
      credentialId: owner.id,
      environment: "test",
      createdAt: NOW - minutes * MINUTE,
      documentUuid: crypto.randomUUID(),
      reference: null,
      rectifiesUuid: null,
      documentCreatedAt: NOW - minutes * MINUTE,
      transportDate: "2026-11-21",
      firstAccess: null,
      accessedVia: null,
      endpointId: null,
      datasetId: null,
      shipment: null,
      message: null,
    });
    // Newest first: 1 and 3 not moved yet, 2 and 5 moved, 4 in both.
    const rows = [1, 2, 3, 4, 5].map(event);
    const [one, two, three, four, five] = rows as [
      EventRow,
      EventRow,
      EventRow,
      EventRow,
      EventRow,
    ];
    await former.insert(events).values([one, three, four]);
    await current.insert(events).values([two, four, five]);
    // Not moved yet either.
    const endpoint = await seedEndpoint(owner, {}, former);

    const queue = recordingQueue({
      ...env,
      SHARDS_BEFORE: String(FROM),
    } as Env);
    const request = callWithClock(fixedClock(NOW), queue.bindings);
    const list = async (query = "") =>
      (await (
        await request(`/api/v1/events${query}`, bearer(owner.key))
      ).json()) as { data: { id: string }[]; has_more: boolean };
    const ids = rows.map((row) => row.id);
    expect((await list()).data.map((e) => e.id)).toEqual(ids);
    const pages: string[][] = [];
    let after = "";
    for (;;) {
      const page = await list(`?limit=2${after}`);
      pages.push(page.data.map((e) => e.id));
      if (!page.has_more) break;
      after = `&starting_after=${page.data.at(-1)?.id}`;
    }
    expect(pages).toEqual([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)]);
    // A cursor already moved: the former shard is read from its position.
    expect(
      (await list(`?starting_after=${two.id}`)).data.map((e) => e.id),
    ).toEqual(ids.slice(2));

    for (const shown of [one, two, four]) {
      const response = await request(
        `/api/v1/events/${shown.id}`,
        bearer(owner.key),
      );
      expect(response.status).toBe(200);
    }
    const redelivered = await request(`/api/v1/events/${three.id}/redeliver`, {
      method: "POST",
      ...bearer(owner.key),
    });
    expect(redelivered.status).toBe(202);
    // The redelivery brought the event and its endpoint into the new home
    // first, as the mover would have, and made its delivery there.
    expect(
      (await former.select().from(events)).some((row) => row.id === three.id),
    ).toBe(false);
    expect(
      (await current.select().from(events)).some((row) => row.id === three.id),
    ).toBe(true);
    expect(queue.sent).toEqual([
      {
        kind: "delivery",
        eventId: three.id,
        endpointId: endpoint.id,
        credentialId: owner.id,
      },
    ]);
    expect(await deliveriesOf(owner, three.id)).toEqual([
      expect.objectContaining({ endpointId: endpoint.id, status: "pending" }),
    ]);
  });
});
