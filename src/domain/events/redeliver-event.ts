import {
  type Redelivery,
  redeliverEvent as redeliver,
} from "../../db/event-log";
import { notFound, ValidationError } from "../../errors";
import type { EventDetail } from "../../schemas/event-result";
import type { RedeliverRequest } from "../../schemas/redeliver-request";
import type { Credential } from "../authenticate";
import type { Services } from "../services";
import { eventDetail } from "./event-detail";
import { homeHolding } from "./home";
import { keptSince } from "./kept-since";

/** Why the endpoint asked for is not one a redelivery of the event reaches. */
function endpointRefused(endpoint: Redelivery["endpoint"]): ValidationError {
  const message = !endpoint
    ? "No webhook endpoint of yours has this id."
    : !endpoint.enabled
      ? "This webhook endpoint is disabled: enable it first."
      : "This webhook endpoint neither receives events of this type nor was sent this event.";
  return new ValidationError([
    { field: "endpoint_id", code: "INVALID_VALUE", message },
  ]);
}

/**
 * Sends one of the caller's events again: its delivery to each endpoint a
 * redelivery reaches (an enabled one that wants its type now or was sent it
 * before; a ping's own endpoint), or to `endpoint_id` only, is made pending
 * and due now in one batch of the home shard, then announced on the events
 * queue. A lost announcement only delays it: the cron sends what stays due.
 */
export async function redeliverEvent(
  services: Services,
  credential: Credential,
  id: string,
  request: RedeliverRequest,
): Promise<EventDetail> {
  const now = services.clock.now();
  const home = await homeHolding(services, [credential.id], { events: [id] });
  const redelivery = await redeliver(
    home,
    credential.id,
    { id, createdSince: keptSince(now), endpointId: request.endpoint_id },
    now,
  );
  if (!redelivery.found) throw notFound();
  if (
    request.endpoint_id !== undefined &&
    !redelivery.redelivered.includes(request.endpoint_id)
  ) {
    throw endpointRefused(redelivery.endpoint);
  }
  services.background(
    "event_redeliver",
    services.eventQueue.send(
      redelivery.redelivered.map((endpointId) => ({
        kind: "delivery",
        eventId: id,
        endpointId,
        credentialId: credential.id,
      })),
    ),
  );
  return eventDetail(redelivery.found);
}
