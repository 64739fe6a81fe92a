import { deliverIfDue } from "./domain/events/deliver";
import { relayDocumentEvents } from "./domain/events/relay";
import type { AppDependencies } from "./env";
import { logFailure } from "./failure-log";
import type { EventMessage } from "./schemas/event-message";
import { createServices } from "./services";

// A message that failed comes back after this long, up to wrangler.toml's
// max_retries; the cron finishes what is still left after that.
export const RETRY_DELAY_SECONDS = 30;

type Outbox = Extract<EventMessage, { kind: "outbox" }>;
type Delivery = Extract<EventMessage, { kind: "delivery" }>;

const isOutbox = (message: Message<EventMessage>): message is Message<Outbox> =>
  message.body.kind === "outbox";

/** Runs `work` for `messages`: all acknowledged when it is done, all sent again when it fails. */
async function settle(
  messages: readonly Message<EventMessage>[],
  kind: EventMessage["kind"],
  work: () => Promise<void>,
): Promise<void> {
  if (messages.length === 0) return;
  try {
    await work();
    for (const message of messages) message.ack();
  } catch (error) {
    logFailure({ event: "event_message_failed", kind }, error);
    for (const message of messages) {
      message.retry({ delaySeconds: RETRY_DELAY_SECONDS });
    }
  }
}

/**
 * The consumer of the events queue (wrangler.toml, `deca-events`). A
 * batch's announcements are relayed together (one read a document shard,
 * one batch a home shard, one record a home shard), each delivery message
 * on its own, all at once.
 */
export const createQueueHandler =
  (
    dependencies: AppDependencies,
  ): ExportedHandlerQueueHandler<Env, EventMessage> =>
  async (batch, env) => {
    const services = createServices(env, dependencies);
    const outbox = batch.messages.filter(isOutbox);
    const deliveries = batch.messages.filter(
      (message): message is Message<Delivery> => !isOutbox(message),
    );
    await Promise.all([
      settle(outbox, "outbox", () =>
        relayDocumentEvents(
          services,
          outbox.flatMap((message) => message.body.documentUuids),
        ),
      ),
      ...deliveries.map((message) =>
        settle([message], "delivery", () =>
          deliverIfDue(services, message.body),
        ),
      ),
    ]);
  };
