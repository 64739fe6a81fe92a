import type { Database } from "../../db/client";
import {
  findUnrelayedEvents,
  markRelayed,
  relayToHome,
} from "../../db/event-relay";
import type { EventRow } from "../../db/schema";
import { logFailure } from "../../failure-log";
import { shardsHolding, toDocument } from "../shard-routing";
import {
  attemptDelivery,
  type DeliveryServices,
  type DueDelivery,
} from "./deliver";
import { eventsHome } from "./home";

/** Rows of one credential, in the order they came. */
function byCredential(rows: readonly EventRow[]): EventRow[][] {
  const groups = new Map<string, EventRow[]>();
  for (const row of rows) {
    groups.set(row.credentialId, [
      ...(groups.get(row.credentialId) ?? []),
      row,
    ]);
  }
  return [...groups.values()];
}

/**
 * Relays events read from `source`'s outbox to their credentials' home
 * shards (one batch each: the events and their deliveries, written once
 * whatever runs again), then marks them relayed in `source`, only once their
 * home's batch committed. The deliveries created, due now. A credential's
 * batch that fails leaves its events unrelayed for the next run (the cron's
 * or a message's), after the others were marked; then it throws.
 */
async function relayEvents(
  services: Pick<DeliveryServices, "shards" | "clock">,
  source: Database,
  rows: readonly EventRow[],
): Promise<DueDelivery[]> {
  const now = services.clock.now();
  const groups = byCredential(rows);
  const relayed = await Promise.allSettled(
    groups.map(async (events) => {
      const credentialId = (events[0] as EventRow).credentialId;
      const home = eventsHome(credentialId)(services.shards);
      const written = await relayToHome(home, credentialId, events, now);
      return written.deliveries.flatMap((key): DueDelivery[] => {
        const event = events.find((row) => row.id === key.eventId);
        const endpoint = written.endpoints.find(
          (row) => row.id === key.endpointId,
        );
        if (!event || !endpoint) return [];
        const delivery = { ...key, credentialId, attempts: 0, createdAt: now };
        return [{ home, delivery, event, endpoint }];
      });
    }),
  );
  const ids = groups
    .filter((_, index) => relayed[index]?.status === "fulfilled")
    .flat()
    .map((row) => row.id);
  if (ids.length > 0) {
    try {
      await markRelayed(source, ids, now);
    } catch (error) {
      // Relayed all the same: the cron relays them again, which writes nothing.
      logFailure({ event: "event_relay_mark_failed" }, error);
    }
  }
  const failure = relayed.find((result) => result.status === "rejected");
  if (failure) throw failure.reason;
  return relayed.flatMap((result) =>
    result.status === "fulfilled" ? result.value : [],
  );
}

/**
 * An `{kind: "outbox"}` message: these documents' events not yet relayed
 * (read where each document is, in both its shards while a rebalance runs)
 * are relayed, and their new deliveries attempted at once.
 */
export async function relayDocumentEvents(
  services: DeliveryServices,
  documentUuids: readonly string[],
): Promise<void> {
  const bySource = new Map<Database, string[]>();
  for (const uuid of documentUuids) {
    for (const shard of shardsHolding(services, toDocument(uuid))) {
      bySource.set(shard, [...(bySource.get(shard) ?? []), uuid]);
    }
  }
  const due: DueDelivery[] = [];
  for (const [source, uuids] of bySource) {
    const rows = await findUnrelayedEvents(source, uuids);
    if (rows.length > 0)
      due.push(...(await relayEvents(services, source, rows)));
  }
  await Promise.all(due.map((delivery) => attemptDelivery(services, delivery)));
}
