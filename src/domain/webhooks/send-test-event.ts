import { insertPing } from "../../db/webhook-endpoints";
import { notFound } from "../../errors";
import type { Event } from "../../schemas/event";
import type { Credential } from "../authenticate";
import { eventPayload } from "../events/payload";
import { newEventId } from "../random";
import type { Services } from "../services";
import { endpointsShard } from "./endpoints";

/**
 * A `ping` event for the endpoint, written in the credential's event log
 * with its one delivery, due now, in one batch; then the queue is told to
 * attempt it. A lost message only delays it: the cron sends again for a
 * delivery overdue.
 */
export async function sendTestEvent(
  services: Pick<
    Services,
    "shards" | "shardsBefore" | "clock" | "eventQueue" | "background"
  >,
  credential: Credential,
  endpointId: string,
): Promise<Event> {
  const row = {
    id: newEventId(),
    type: "ping" as const,
    credentialId: credential.id,
    environment: credential.environment,
    createdAt: services.clock.now(),
    documentUuid: null,
    reference: null,
    rectifiesUuid: null,
    documentCreatedAt: null,
    transportDate: null,
    firstAccess: null,
    accessedVia: null,
    endpointId,
    datasetId: null,
    shipment: null,
    message: null,
  };
  if (!(await insertPing(await endpointsShard(services, credential), row))) {
    throw notFound();
  }
  services.background(
    "webhook_ping_send",
    services.eventQueue.send([
      {
        kind: "delivery",
        eventId: row.id,
        endpointId,
        credentialId: credential.id,
      },
    ]),
  );
  return eventPayload(row);
}
