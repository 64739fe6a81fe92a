import type { Database } from "../../db/client";
import type {
  EventRow,
  WebhookDeliveryRow,
  WebhookEndpointRow,
} from "../../db/schema";
import {
  type AttemptOutcome,
  type DeliveryKey,
  failDelivery,
  findDelivery,
  recordAttempt,
} from "../../db/webhook-deliveries";
import { logFailure } from "../../failure-log";
import type { Services } from "../services";
import { findMoving } from "../shard-routing";
import { DISABLE_AFTER_MS, RETRY_FOR_MS, retryDelayMs } from "./backoff";
import { eventsHome } from "./home";
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
    await response.body?.cancel();
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

/**
 * One attempt of a due delivery: the signed POST, its record (one batch of
 * the home shard), then, if it is to be tried again, the message that will
 * bring it back after the backoff. A lost or failed record is logged: the
 * delivery stays as it was, pending, and is tried again (by that message, or
 * by the cron once overdue), with the same `webhook-id`.
 */
export async function attemptDelivery(
  services: DeliveryServices,
  due: DueDelivery,
): Promise<AttemptOutcome["status"]> {
  const { delivery, event, endpoint } = due;
  // Throws a ConfigError when WEBHOOK_KEYRING is not set: nothing can be signed.
  const keyring = services.webhooks.keyring();
  const attemptedAt = services.clock.now();
  const answer = await post(
    services,
    await webhookRequest(keyring, endpoint, event, attemptedAt),
  );
  const durationMs = services.clock.now() - attemptedAt;
  const outcome = outcomeOf(delivery, isDelivered(answer), attemptedAt);
  try {
    await recordAttempt(
      due.home,
      {
        ...keyOf(delivery),
        credentialId: delivery.credentialId,
        attemptedAt,
        durationMs,
        ...answer,
      },
      outcome,
    );
  } catch (error) {
    logFailure({ event: "webhook_attempt_record_failed" }, error);
  }
  if (outcome.nextAttemptAt !== null) {
    await services.eventQueue.send(
      [
        {
          kind: "delivery",
          ...keyOf(delivery),
          credentialId: delivery.credentialId,
        },
      ],
      { delaySeconds: (outcome.nextAttemptAt - attemptedAt) / 1000 },
    );
  }
  return outcome.status;
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
  const found = await findMoving(
    services,
    eventsHome(message.credentialId),
    async (db) => {
      const rows = await findDelivery(db, key);
      return rows.delivery ? rows : null;
    },
  );
  const delivery = found?.found.delivery;
  if (!found || !delivery || delivery.status !== "pending") return;
  const now = services.clock.now();
  if (
    delivery.nextAttemptAt === null ||
    delivery.nextAttemptAt > now + DUE_SLACK_MS
  ) {
    return;
  }
  const { event, endpoint } = found.found;
  if (!event || !endpoint?.enabled) {
    await failDelivery(found.shard, key, now);
    return;
  }
  await attemptDelivery(services, {
    home: found.shard,
    delivery,
    event,
    endpoint,
  });
}
