import { type EventDeliveries, findEventDeliveries } from "../../db/event-log";
import type { WebhookDeliveryRow } from "../../db/schema";
import { notFound } from "../../errors";
import type { EventDetail } from "../../schemas/event-result";
import type { Credential } from "../authenticate";
import type { Services } from "../services";
import { shardsHolding } from "../shard-routing";
import { eventDetail } from "./event-detail";
import { eventsHome } from "./home";
import { keptSince } from "./kept-since";

/**
 * One of the caller's events with its deliveries, read in its home shard
 * (in both while a rebalance moves it, where the event, its deliveries and
 * their attempts may each be in either). Another credential's, and one
 * past the retention, are the same 404 as an unknown one.
 */
export async function getEvent(
  services: Pick<Services, "shards" | "shardsBefore" | "clock">,
  credential: Credential,
  id: string,
): Promise<EventDetail> {
  const createdSince = keptSince(services.clock.now());
  const copies = await Promise.all(
    shardsHolding(services, eventsHome(credential.id)).map((home) =>
      findEventDeliveries(home, credential.id, id, createdSince),
    ),
  );
  const found = copies.filter((copy) => copy !== undefined);
  if (found.length === 0) throw notFound();
  return eventDetail(merged(found));
}

/** What both homes hold of an event, as one: each delivery's newest copy, every attempt once. */
function merged(copies: readonly EventDeliveries[]): EventDeliveries {
  const deliveries = new Map<string, WebhookDeliveryRow>();
  for (const delivery of copies.flatMap((copy) => copy.deliveries)) {
    const kept = deliveries.get(delivery.endpointId);
    if (!kept || delivery.updatedAt > kept.updatedAt) {
      deliveries.set(delivery.endpointId, delivery);
    }
  }
  // An attempt copied by the mover has another id: it is what it says.
  const attempts = new Map(
    copies
      .flatMap((copy) => copy.attempts)
      .map((attempt) => {
        const { id: _id, ...says } = attempt;
        return [JSON.stringify(says), attempt] as const;
      }),
  );
  return {
    event: (copies[0] as EventDeliveries).event,
    deliveries: [...deliveries.values()].sort(
      // As SQLite orders them: by creation, then the id's bytes.
      (a, b) =>
        a.createdAt - b.createdAt ||
        Number(a.endpointId > b.endpointId) -
          Number(a.endpointId < b.endpointId),
    ),
    attempts: [...attempts.values()].sort(
      (a, b) => a.attemptedAt - b.attemptedAt || a.id - b.id,
    ),
  };
}
