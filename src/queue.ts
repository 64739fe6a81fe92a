import { deliverIfDue } from "./domain/events/deliver";
import {
  RegistrationsNotSent,
  registerWithGate,
  registrationRetryDelaySeconds,
} from "./domain/events/gate-registration";
import { relayDocumentEvents } from "./domain/events/relay";
import type { AppDependencies } from "./env";
import { logFailure } from "./failure-log";
import type { EventMessage } from "./schemas/event-message";
import { createServices } from "./services";

// A message that failed comes back after this long, up to wrangler.toml's
// max_retries; the cron finishes what is still left after that. An eFTI
// registration's comes back when its rows are due again, sooner at first,
// then later (registrationRetryDelaySeconds).
export const RETRY_DELAY_SECONDS = 30;

type Kind = EventMessage["kind"];
type OfKind<K extends Kind> = Extract<EventMessage, { kind: K }>;

const ofKind =
  <K extends Kind>(kind: K) =>
  (message: Message<EventMessage>): message is Message<OfKind<K>> =>
    message.body.kind === kind;

/**
 * Runs `work` for `messages`: all acknowledged when it is done, all sent
 * again when it fails, after `delay` of each message's attempts and the
 * failure.
 */
async function settle(
  messages: readonly Message<EventMessage>[],
  kind: Kind,
  work: () => Promise<void>,
  delay: (attempts: number, error: unknown) => number = () =>
    RETRY_DELAY_SECONDS,
): Promise<void> {
  if (messages.length === 0) return;
  try {
    await work();
    for (const message of messages) message.ack();
  } catch (error) {
    logFailure({ event: "event_message_failed", kind }, error);
    for (const message of messages) {
      message.retry({ delaySeconds: delay(message.attempts, error) });
    }
  }
}

/** A registrations' message comes back when their next attempt is due. */
const registrationDelaySeconds = (attempts: number, error: unknown): number =>
  error instanceof RegistrationsNotSent
    ? error.retryAfterSeconds
    : registrationRetryDelaySeconds(attempts);

/**
 * The consumer of the events queue (wrangler.toml, `deca-events`). A
 * batch's announcements are relayed together (one read a document shard,
 * one batch a home shard, one record a home shard), its eFTI registrations
 * sent together (one read a document shard), each delivery message on its
 * own, all at once.
 */
export const createQueueHandler =
  (
    dependencies: AppDependencies,
  ): ExportedHandlerQueueHandler<Env, EventMessage> =>
  async (batch, env) => {
    const services = createServices(env, dependencies);
    const outbox = batch.messages.filter(ofKind("outbox"));
    const registrations = batch.messages.filter(ofKind("efti_registration"));
    const deliveries = batch.messages.filter(ofKind("delivery"));
    await Promise.all([
      settle(outbox, "outbox", () =>
        relayDocumentEvents(
          services,
          outbox.flatMap((message) => message.body.documentUuids),
        ),
      ),
      settle(
        registrations,
        "efti_registration",
        () =>
          registerWithGate(
            services,
            registrations.flatMap((message) => message.body.documentUuids),
          ),
        registrationDelaySeconds,
      ),
      ...deliveries.map((message) =>
        settle([message], "delivery", () =>
          deliverIfDue(services, message.body),
        ),
      ),
    ]);
  };
