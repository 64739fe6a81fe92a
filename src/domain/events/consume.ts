import type { EventMessage } from "../../schemas/event-message";
import { type DeliveryServices, deliverIfDue } from "./deliver";
import { relayDocumentEvents } from "./relay";

/** What one message of the events queue asks for; throws to have it sent again. */
export const consumeEventMessage = (
  services: DeliveryServices,
  message: EventMessage,
): Promise<void> =>
  message.kind === "outbox"
    ? relayDocumentEvents(services, message.documentUuids)
    : deliverIfDue(services, message);
