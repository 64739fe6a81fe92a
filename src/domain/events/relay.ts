import type { Database } from "../../db/client";
import {
  findUnrelayedEvents,
  markRelayed,
  relayToHome,
} from "../../db/event-relay";
import type { EventRow } from "../../db/schema";
import { logFailure } from "../../failure-log";
import { chunks, grouped } from "../grouped";
import { shardsHolding, toDocument } from "../shard-routing";
import {
  attemptDeliveries,
  type DeliveryServices,
  type DueDelivery,
} from "./deliver";
import { eventsHome, homeHolding } from "./home";

// D1 binds at most 100 values a statement: ids, uuids and credentials go
// by fifty.
const AT_ONCE = 50;

/** An event read from an outbox, and the shard it was read from. */
interface Unrelayed {
  source: Database;
  event: EventRow;
}

/**
 * Relays events to their credentials' home shards (one batch a home shard:
 * the events and their deliveries, written once whatever runs again), then
 * marks them relayed in the shards they were read from, only once their
 * home's batch committed. The deliveries created, due now, and the failure
 * of a home's batch if one failed: its events stay unrelayed for the next
 * run (the message's retry, or the cron's announcement).
 */
async function relayEvents(
  services: Pick<DeliveryServices, "shards" | "shardsBefore" | "clock">,
  unrelayed: readonly Unrelayed[],
): Promise<{ due: DueDelivery[]; failure: unknown }> {
  const now = services.clock.now();
  const homes = [
    ...grouped(unrelayed, ({ event }) =>
      eventsHome(event.credentialId)(services.shards),
    ),
  ].flatMap(([home, group]) =>
    chunks(group, AT_ONCE).map((run) => [home, run] as const),
  );
  const relayed = await Promise.allSettled(
    homes.map(async ([home, group]) => {
      const events = group.map(({ event }) => event);
      // An event relayed before (its mark lost) is found where it is, and
      // the endpoints of a home still moving are all here.
      await homeHolding(
        services,
        events.map((event) => event.credentialId),
        { events: events.map((event) => event.id) },
      );
      const written = await relayToHome(home, events, now);
      return written.deliveries.flatMap((key): DueDelivery[] => {
        const event = events.find((row) => row.id === key.eventId);
        const endpoint = written.endpoints.find(
          (row) => row.id === key.endpointId,
        );
        if (!event || !endpoint) return [];
        const { credentialId } = event;
        const delivery = {
          ...key,
          credentialId,
          attempts: 0,
          createdAt: now,
          retryingSince: null,
        };
        return [{ home, delivery, event, endpoint }];
      });
    }),
  );
  const committed = homes
    .filter((_, index) => relayed[index]?.status === "fulfilled")
    .flatMap(([, group]) => group);
  await Promise.all(
    [...grouped(committed, ({ source }) => source)].flatMap(([source, group]) =>
      chunks(group, AT_ONCE).map((run) =>
        markRelayed(
          source,
          run.map(({ event }) => event.id),
          now,
        ).catch((error: unknown) =>
          // Relayed all the same: announced again, their relay writes nothing.
          logFailure({ event: "event_relay_mark_failed" }, error),
        ),
      ),
    ),
  );
  return {
    due: relayed.flatMap((result) =>
      result.status === "fulfilled" ? result.value : [],
    ),
    failure: relayed.find((result) => result.status === "rejected")?.reason,
  };
}

/**
 * What `{kind: "outbox"}` messages ask (a batch's, together): these
 * documents' events not yet relayed, read where each document is (in both
 * its shards while a rebalance runs), one read a shard, are relayed, and
 * their new deliveries attempted at once.
 */
export async function relayDocumentEvents(
  services: DeliveryServices,
  documentUuids: readonly string[],
): Promise<void> {
  const sources = grouped(
    [...new Set(documentUuids)].flatMap((uuid) =>
      shardsHolding(services, toDocument(uuid)).map((source) => ({
        source,
        uuid,
      })),
    ),
    ({ source }) => source,
  );
  const unrelayed = (
    await Promise.all(
      [...sources].flatMap(([source, documents]) =>
        chunks(documents, AT_ONCE).map(async (run) =>
          (
            await findUnrelayedEvents(
              source,
              run.map(({ uuid }) => uuid),
            )
          ).map((event) => ({ source, event })),
        ),
      ),
    )
  ).flat();
  if (unrelayed.length === 0) return;
  const { due, failure } = await relayEvents(services, unrelayed);
  await attemptDeliveries(services, due);
  // The messages come back for what a failed home's batch left.
  if (failure !== undefined) throw failure;
}
