import { consumeEventMessage } from "./domain/events/consume";
import type { AppDependencies } from "./env";
import { logFailure } from "./failure-log";
import type { EventMessage } from "./schemas/event-message";
import { createServices } from "./services";

// A message that failed comes back after this long, up to wrangler.toml's
// max_retries; the cron finishes what is still left after that.
export const RETRY_DELAY_SECONDS = 30;

/**
 * The consumer of the events queue (wrangler.toml, `deca-events`): each
 * message of a batch handled at once, acknowledged when done, sent again
 * when it failed (the failure logged).
 */
export const createQueueHandler =
  (
    dependencies: AppDependencies,
  ): ExportedHandlerQueueHandler<Env, EventMessage> =>
  async (batch, env) => {
    const services = createServices(env, dependencies);
    await Promise.all(
      batch.messages.map(async (message) => {
        try {
          await consumeEventMessage(services, message.body);
          message.ack();
        } catch (error) {
          logFailure(
            { event: "event_message_failed", kind: message.body.kind },
            error,
          );
          message.retry({ delaySeconds: RETRY_DELAY_SECONDS });
        }
      }),
    );
  };
