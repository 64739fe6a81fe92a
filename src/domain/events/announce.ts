import type { Services } from "../services";

/**
 * Announces, after the answer, that these documents' shard has events to
 * relay (the batch that committed their facts wrote them). A lost
 * announcement only delays them: the cron relays what stays unrelayed.
 */
export const announceEvents = (
  services: Services,
  documentUuids: string[],
): void =>
  services.background(
    "event_announce",
    services.eventQueue.send([{ kind: "outbox", documentUuids }]),
  );
