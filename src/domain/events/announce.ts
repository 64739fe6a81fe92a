import type { EventMessage } from "../../schemas/event-message";
import type { Services } from "../services";

/**
 * Announces, after the answer, that these documents' shard has events to
 * relay (the batch that committed their facts wrote them), and, in the
 * same send, that `registered` documents have eFTI registrations to send to
 * the gate (that batch wrote them too; none while no gate is configured). A
 * lost announcement only delays them: the cron sends again what stays
 * unrelayed or unsent.
 */
export const announceEvents = (
  services: Services,
  documentUuids: string[],
  registered: readonly string[] = [],
): void => {
  const messages: EventMessage[] = [{ kind: "outbox", documentUuids }];
  if (registered.length > 0) {
    messages.push({
      kind: "efti_registration",
      documentUuids: [...registered],
    });
  }
  services.background("event_announce", services.eventQueue.send(messages));
};
