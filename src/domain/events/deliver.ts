import type { Database } from "../../db/client";
import type {
  EventRow,
  WebhookDeliveryRow,
  WebhookEndpointRow,
} from "../../db/schema";
import {
  type AttemptOutcome,
  type AttemptRecord,
  type DeliveryKey,
  failDelivery,
  findDelivery,
  recordAttempts,
} from "../../db/webhook-deliveries";
import { logFailure } from "../../failure-log";
import { grouped } from "../grouped";
import type { Services } from "../services";
import { DISABLE_AFTER_MS, RETRY_FOR_MS, retryDelayMs } from "./backoff";
import { homeHolding } from "./home";
import { webhookRequest } from "./webhook-request";

export type DeliveryServices = Pick<
  Services,
  | "shards"
  | "shardsBefore"
  | "clock"
  | "eventQueue"
  | "webhooks"
  | "sendWebhook"
>;

// A message may come a little before the time its delay aimed at.
const DUE_SLACK_MS = 5_000;

/** A delivery about to be attempted: where it lives, its event and its endpoint. */
export interface DueDelivery {
  home: Database;
  delivery: Pick<
    WebhookDeliveryRow,
    "eventId" | "endpointId" | "credentialId" | "attempts" | "createdAt"
  >;
  event: EventRow;
  endpoint: WebhookEndpointRow;
}

/** What the receiver answered: its status, or why there was no answer to accept. */
interface Answer {
  statusCode: number | null;
  error: "timeout" | "connection" | "redirect" | null;
}

/** Posts `request`; never throws. The answer's body is not read. */
async function post(
  services: DeliveryServices,
  request: Request,
): Promise<Answer> {
  try {
    const response = await services.sendWebhook(request);
    // Not kept: its receiver's business (a failed cancel changes nothing).
    await response.body?.cancel().catch(() => undefined);
    const redirected = response.status >= 300 && response.status < 400;
    return {
      statusCode: response.status,
      error: redirected ? "redirect" : null,
    };
  } catch (error) {
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    return { statusCode: null, error: timedOut ? "timeout" : "connection" };
  }
}

const isDelivered = ({ statusCode, error }: Answer): boolean =>
  error === null &&
  statusCode !== null &&
  statusCode >= 200 &&
  statusCode < 300;

/**
 * What an attempt started at `at` makes of its delivery: delivered on any
 * 2xx; otherwise tried again after the backoff, or failed once its first
 * attempt is 3 days old; a failure may disable the endpoint (3 days of
 * failing every attempt).
 */
function outcomeOf(
  delivery: DueDelivery["delivery"],
  delivered: boolean,
  at: number,
): AttemptOutcome {
  if (delivered) {
    return {
      status: "delivered",
      nextAttemptAt: null,
      disableIfFailingSince: null,
    };
  }
  const disableIfFailingSince = at - DISABLE_AFTER_MS;
  if (at - delivery.createdAt >= RETRY_FOR_MS) {
    return { status: "failed", nextAttemptAt: null, disableIfFailingSince };
  }
  return {
    status: "pending",
    nextAttemptAt: at + retryDelayMs(delivery.attempts + 1),
    disableIfFailingSince,
  };
}

/** One POST of a due delivery, and what it makes of the delivery (not yet recorded). */
async function attempt(
  services: DeliveryServices,
  { delivery, event, endpoint }: DueDelivery,
): Promise<AttemptRecord> {
  // Throws a ConfigError when WEBHOOK_KEYRING is not set: nothing can be signed.
  const keyring = services.webhooks.keyring();
  const attemptedAt = services.clock.now();
  const answer = await post(
    services,
    await webhookRequest(keyring, endpoint, event, attemptedAt),
  );
  return {
    attempt: {
      ...keyOf(delivery),
      credentialId: delivery.credentialId,
      attemptedAt,
      durationMs: services.clock.now() - attemptedAt,
      ...answer,
    },
    outcome: outcomeOf(delivery, isDelivered(answer), attemptedAt),
  };
}

/**
 * Attempts due deliveries, all at once (the signed POSTs); then records
 * them, one batch a home shard; then sends, for each to be tried again, the
 * message that brings it back after its backoff. A lost or failed record is
 * logged: its deliveries stay as they were, pending, and are tried again
 * (by that message, or by the cron once overdue) with the same `webhook-id`.
 */
export async function attemptDeliveries(
  services: DeliveryServices,
  due: readonly DueDelivery[],
): Promise<void> {
  const attempted = (
    await Promise.all(
      due.map(async (one) => {
        try {
          return [{ home: one.home, record: await attempt(services, one) }];
        } catch (error) {
          // Not posted (its secret would not open): it stays due for the cron.
          logFailure({ event: "webhook_attempt_failed" }, error);
          return [];
        }
      }),
    )
  ).flat();
  const records = attempted.map(({ record }) => record);
  const homes = grouped(attempted, ({ home }) => home);
  await Promise.all(
    [...homes].map(([home, attempts]) =>
      recordAttempts(
        home,
        attempts.map(({ record }) => record),
      ).catch((error: unknown) =>
        logFailure({ event: "webhook_attempt_record_failed" }, error),
      ),
    ),
  );
  await Promise.all(
    records.map(({ attempt: { attemptedAt, ...made }, outcome }) =>
      outcome.nextAttemptAt === null
        ? undefined
        : services.eventQueue.send(
            [
              {
                kind: "delivery",
                ...keyOf(made),
                credentialId: made.credentialId,
              },
            ],
            { delaySeconds: (outcome.nextAttemptAt - attemptedAt) / 1000 },
          ),
    ),
  );
}

const keyOf = ({ eventId, endpointId }: DeliveryKey): DeliveryKey => ({
  eventId,
  endpointId,
});

/**
 * A `{kind: "delivery"}` message: the delivery is attempted if it is still
 * pending and due; one whose endpoint (or event) is gone, or whose endpoint
 * is disabled, fails. Anything else (delivered, failed, not yet due,
 * purged) was settled by the rows, and the message is done.
 */
export async function deliverIfDue(
  services: DeliveryServices,
  message: DeliveryKey & { credentialId: string },
): Promise<void> {
  const key = keyOf(message);
  const home = await homeHolding(services, [message.credentialId], {
    events: [key.eventId],
  });
  const { delivery, event, endpoint } = await findDelivery(home, key);
  if (delivery?.status !== "pending") return;
  const now = services.clock.now();
  if (
    delivery.nextAttemptAt === null ||
    delivery.nextAttemptAt > now + DUE_SLACK_MS
  ) {
    return;
  }
  if (!event || !endpoint?.enabled) {
    await failDelivery(home, key, now);
    return;
  }
  await attemptDeliveries(services, [{ home, delivery, event, endpoint }]);
}
