import type { Database } from "../../db/client";
import type {
  EventRow,
  WebhookDeliveryRow,
  WebhookEndpointRow,
} from "../../db/schema";
import {
  type AttemptOutcome,
  type AttemptRecord,
  type AttemptRow,
  type DeliveryKey,
  failDelivery,
  findDelivery,
  recordAttempts,
} from "../../db/webhook-deliveries";
import { logFailure } from "../../failure-log";
import type { EventMessage } from "../../schemas/event-message";
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
  | "webhookPosts"
  | "subrequests"
>;

// A message may come a little before the time its delay aimed at.
const DUE_SLACK_MS = 5_000;

/**
 * POSTs in flight at once in an invocation: a Worker keeps six connections
 * waiting for headers and queues the rest, and a queued request would spend
 * its 10 s waiting.
 */
export const CONCURRENT_POSTS = 6;

/**
 * Deliveries a relay attempts itself; it sends the rest as messages, which
 * later invocations attempt. Six rounds of the six connections take at most
 * a minute when every receiver times out (10 s), far within a consumer's
 * 15 minutes with the up to 100 deliveries of other messages of its batch,
 * and their record is at most 5 D1 statements each.
 */
const ATTEMPTED_INLINE = 6 * CONCURRENT_POSTS;

/** A delivery about to be attempted: where it lives, its event and its endpoint. */
export interface DueDelivery {
  home: Database;
  delivery: Pick<
    WebhookDeliveryRow,
    | "eventId"
    | "endpointId"
    | "credentialId"
    | "attempts"
    | "createdAt"
    | "retryingSince"
  >;
  event: EventRow;
  endpoint: WebhookEndpointRow;
}

/** What the receiver answered: its status, or why there was no answer to accept. */
interface Answer {
  statusCode: number | null;
  error: AttemptRow["error"];
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

/**
 * Signs and posts the delivery made at `at`; never throws. A secret that
 * will not open (WEBHOOK_KEYRING unset, its key version dropped) is a failed
 * attempt, `signing`, with nothing posted.
 */
async function signedPost(
  services: DeliveryServices,
  { event, endpoint }: DueDelivery,
  at: number,
): Promise<Answer> {
  let request: Request;
  try {
    request = await webhookRequest(
      services.webhooks.keyring(),
      endpoint,
      event,
      at,
    );
  } catch (error) {
    logFailure({ event: "webhook_signing_failed" }, error);
    return { statusCode: null, error: "signing" };
  }
  return post(services, request);
}

const isDelivered = ({ statusCode, error }: Answer): boolean =>
  error === null &&
  statusCode !== null &&
  statusCode >= 200 &&
  statusCode < 300;

/**
 * What an attempt that ended at `at` makes of its delivery: delivered on
 * any 2xx; otherwise tried again after the backoff, or failed once its
 * retries began 3 days ago, or at once for a ping (tried once). A POST's
 * failure may disable the endpoint (3 days of failing every attempt); an
 * attempt that posted nothing says nothing of the endpoint.
 */
function outcomeOf(
  { delivery, event }: DueDelivery,
  answer: Answer,
  at: number,
): AttemptOutcome {
  if (isDelivered(answer)) {
    return { status: "delivered", nextAttemptAt: null, endpoint: "delivered" };
  }
  const endpoint =
    answer.error === "signing"
      ? null
      : { disableIfFailingSince: at - DISABLE_AFTER_MS };
  const retryingSince = delivery.retryingSince ?? delivery.createdAt;
  if (event.type === "ping" || at - retryingSince >= RETRY_FOR_MS) {
    return { status: "failed", nextAttemptAt: null, endpoint };
  }
  return {
    status: "pending",
    nextAttemptAt: at + retryDelayMs(delivery.attempts + 1),
    endpoint,
  };
}

/**
 * One POST of a due delivery once a connection is free (its time, its
 * signature and its 10 s start then), and what it makes of the delivery
 * (not yet recorded).
 */
const attempt = (
  services: DeliveryServices,
  due: DueDelivery,
): Promise<AttemptRecord> =>
  services.webhookPosts(async () => {
    const attemptedAt = services.clock.now();
    const answer = await signedPost(services, due, attemptedAt);
    const endedAt = services.clock.now();
    return {
      attempt: {
        ...keyOf(due.delivery),
        credentialId: due.delivery.credentialId,
        attemptedAt,
        durationMs: endedAt - attemptedAt,
        ...answer,
      },
      outcome: outcomeOf(due, answer, endedAt),
    };
  });

/**
 * `due` with each credential's deliveries taken in turn (its first, then
 * every other's first, then its second…), so that one credential's many
 * deliveries do not push everyone else's out of an invocation.
 */
function takenInTurn(due: readonly DueDelivery[]): DueDelivery[] {
  const byCredential = [
    ...grouped(due, ({ delivery }) => delivery.credentialId).values(),
  ];
  const longest = Math.max(0, ...byCredential.map((group) => group.length));
  return Array.from({ length: longest }, (_, turn) =>
    byCredential.flatMap((group) => group.slice(turn, turn + 1)),
  ).flat();
}

const messageOf = (
  delivery: DeliveryKey & { credentialId: string },
): EventMessage => ({
  kind: "delivery",
  ...keyOf(delivery),
  credentialId: delivery.credentialId,
});

/**
 * Attempts due deliveries: up to ATTEMPTED_INLINE of them, and no more
 * than the invocation's subrequests left, taken in turn by credential, at
 * most CONCURRENT_POSTS at once; the rest are sent as messages of their own
 * (a lost send leaves them due for the cron), which later invocations
 * attempt. Then
 * records the attempts, one batch a home shard; then sends, for each to be
 * tried again, the message that brings it back after its backoff. A lost or
 * failed record is logged: its deliveries stay as they were, pending, and
 * are tried again (by that message, or by the cron once overdue) with the
 * same `webhook-id`.
 */
export async function attemptDeliveries(
  services: DeliveryServices,
  due: readonly DueDelivery[],
): Promise<void> {
  const inTurn = takenInTurn(due);
  const attempted = services.subrequests.take(
    Math.min(ATTEMPTED_INLINE, inTurn.length),
  );
  const later = inTurn.slice(attempted);
  const [posted] = await Promise.all([
    Promise.all(
      inTurn.slice(0, attempted).map(async (one) => ({
        home: one.home,
        record: await attempt(services, one),
      })),
    ),
    services.eventQueue
      .send(later.map(({ delivery }) => messageOf(delivery)))
      .catch((error: unknown) =>
        logFailure({ event: "webhook_delivery_send_failed" }, error),
      ),
  ]);
  const records = posted.map(({ record }) => record);
  const homes = grouped(posted, ({ home }) => home);
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
    records.map(({ attempt: { attemptedAt, durationMs, ...made }, outcome }) =>
      outcome.nextAttemptAt === null
        ? undefined
        : services.eventQueue.send([messageOf(made)], {
            delaySeconds:
              (outcome.nextAttemptAt - (attemptedAt + durationMs)) / 1000,
          }),
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
