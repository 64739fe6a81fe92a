import { findEventDeliveries } from "../../db/event-log";
import { notFound } from "../../errors";
import type { EventDetail } from "../../schemas/event-result";
import type { Credential } from "../authenticate";
import type { Services } from "../services";
import { findMoving } from "../shard-routing";
import { eventDetail } from "./event-detail";
import { eventsHome } from "./home";
import { keptSince } from "./kept-since";

/**
 * One of the caller's events with its deliveries, read in its home shard.
 * Another credential's, and one past the retention, are the same 404 as an
 * unknown one.
 */
export async function getEvent(
  services: Pick<Services, "shards" | "shardsBefore" | "clock">,
  credential: Credential,
  id: string,
): Promise<EventDetail> {
  const createdSince = keptSince(services.clock.now());
  const found = await findMoving(services, eventsHome(credential.id), (home) =>
    findEventDeliveries(home, credential.id, id, createdSince),
  );
  if (!found) throw notFound();
  return eventDetail(found.found);
}
