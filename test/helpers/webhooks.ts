import {
  createExecutionContext,
  createMessageBatch,
  env,
  getQueueResult,
} from "cloudflare:test";
import type { Clock } from "../../src/clock";
import { configOf } from "../../src/config";
import { eventsHome } from "../../src/domain/events/home";
import { randomBase62 } from "../../src/domain/random";
import type { SendWebhook } from "../../src/domain/services";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import { createQueueHandler, RETRY_DELAY_SECONDS } from "../../src/queue";
import type { EventMessage } from "../../src/schemas/event-message";
import { sealWebhookSecret } from "../../src/storage/webhook-secret-box";
import wranglerToml from "../../wrangler.toml?raw";
import { runCron } from "./cron";
import { shards } from "./shards";
import { callWithClock, fixedClock } from "./worker";

// Webhooks without a network or a real queue: the events queue kept in the
// test (each message with the time it becomes visible), a receiver that
// records every delivery, and the API Worker's queue consumer run on the
// messages that are due by the test's clock, as Cloudflare Queues would.

/** The most messages Cloudflare Queues hands the consumer at once: wrangler.toml's max_batch_size. */
export const MAX_BATCH_SIZE = Number(
  /\[\[queues\.consumers\]\][^[]*?max_batch_size\s*=\s*(\d+)/.exec(
    wranglerToml,
  )?.[1],
);

/** A message sent to the events queue, and when it is delivered to the consumer. */
export interface QueuedMessage {
  body: EventMessage;
  visibleAt: number;
}

/** How the queue's send fails: before anything is sent, or after (its answer lost). */
export type SendFault = "before" | "lost";

/** The events queue, kept in the test; `fault` makes each send fail as said. */
function keptQueue(clock: Clock) {
  const waiting: QueuedMessage[] = [];
  let fault: SendFault | null = null;
  let sends = 0;
  const binding = {
    async sendBatch(
      messages: Iterable<MessageSendRequest<EventMessage>>,
    ): Promise<void> {
      sends++;
      if (fault === "before") throw new Error("queue send unavailable");
      for (const { body, delaySeconds = 0 } of messages) {
        waiting.push({ body, visibleAt: clock.now() + delaySeconds * 1000 });
      }
      if (fault === "lost") throw new Error("queue send timed out");
    },
  } as unknown as Queue<EventMessage>;
  return {
    binding,
    waiting,
    /** The sends so far (each a call to Cloudflare Queues). */
    sends: () => sends,
    /** Every send fails as said from now on; null: they work again. */
    failSends(how: SendFault | null) {
      fault = how;
    },
    /** The messages visible by now, taken off the queue. */
    takeDue(): QueuedMessage[] {
      const now = clock.now();
      const due = waiting.filter((message) => message.visibleAt <= now);
      waiting.splice(
        0,
        waiting.length,
        ...waiting.filter((m) => !due.includes(m)),
      );
      return due;
    },
  };
}

/** One delivery as the receiver got it. */
export interface Received {
  url: string;
  headers: Headers;
  body: string;
  /** The `webhook-id` header: the event's id. */
  id: string;
}

/**
 * A receiver of deliveries: records each one, and answers what `answer`
 * says for it (200 unless told), or throws what it throws (no answer).
 */
export function recordingReceiver(
  answer: (
    received: Received,
    index: number,
    signal: AbortSignal,
  ) => Response | Promise<Response> = () => new Response("ok"),
) {
  const received: Received[] = [];
  const send: SendWebhook = async (request) => {
    const delivery = {
      url: request.url,
      headers: request.headers,
      body: await request.text(),
      id: request.headers.get("webhook-id") ?? "",
    };
    received.push(delivery);
    return answer(delivery, received.length - 1, request.signal);
  };
  return { received, send };
}

/** Runs the API Worker's queue consumer on `messages`; acknowledged and retried ones. */
async function consume(
  messages: readonly EventMessage[],
  options: {
    clock: Clock;
    sendWebhook: SendWebhook;
    sendToGate: SendWebhook;
    bindings: Env;
  },
) {
  const batch = createMessageBatch<EventMessage>(
    "deca-events",
    messages.map((body, index) => ({
      id: `message-${index}`,
      timestamp: options.clock.now(),
      attempts: 1,
      body,
    })),
  );
  // The delay each retry asks for, which the test's result omits.
  const delays = new Map<string, number | undefined>();
  for (const message of batch.messages) {
    const retry = message.retry.bind(message);
    message.retry = (retryOptions) => {
      delays.set(message.id, retryOptions?.delaySeconds);
      retry(retryOptions);
    };
  }
  const context = createExecutionContext();
  await createQueueHandler({
    clock: options.clock,
    renderPdf: renderDocumentPdf,
    sendWebhook: options.sendWebhook,
    sendToGate: options.sendToGate,
  })(batch, options.bindings, context);
  const result = await getQueueResult(batch, context);
  return {
    ...result,
    retryMessages: result.retryMessages.map((retried) => ({
      ...retried,
      delaySeconds: delays.get(retried.msgId),
    })),
  };
}

/**
 * A test's webhooks: its clock, its events queue, its receiver, the service
 * on bindings whose EVENTS is that queue (and D1 as `bindings()` makes it,
 * by default the real one), the consumer and the cron on the same; `gate`
 * records what the consumer sends to the eFTI gate (answered by `gateAnswer`).
 */
export function webhookWorld(
  now: number,
  answer?: Parameters<typeof recordingReceiver>[0],
  gateAnswer?: Parameters<typeof recordingReceiver>[0],
) {
  const clock = fixedClock(now);
  const queue = keptQueue(clock);
  const receiver = recordingReceiver(answer);
  const gate = recordingReceiver(gateAnswer);
  const withQueue = (bindings: Env = env): Env => ({
    ...bindings,
    EVENTS: queue.binding,
  });
  return {
    clock,
    queue,
    receiver,
    gate,
    withQueue,
    /** The service on these bindings (D1 as `bindings` says). */
    request: (bindings?: Env) => callWithClock(clock, withQueue(bindings)),
    /**
     * Hands one batch of the messages visible by now (up to 100, as
     * wrangler.toml's max_batch_size) to the consumer; a message it retried
     * comes back after its delay. Whether there was any.
     */
    async consumeBatch(bindings?: Env): Promise<boolean> {
      const due = queue.takeDue();
      queue.waiting.unshift(...due.splice(MAX_BATCH_SIZE));
      if (due.length === 0) return false;
      const result = await consume(
        due.map((message) => message.body),
        {
          clock,
          sendWebhook: receiver.send,
          sendToGate: gate.send,
          bindings: withQueue(bindings),
        },
      );
      for (const retried of result.retryMessages) {
        const index = Number(retried.msgId.slice("message-".length));
        queue.waiting.push({
          body: (due[index] as QueuedMessage).body,
          // The delay the handler asks for.
          visibleAt:
            clock.now() + (retried.delaySeconds ?? RETRY_DELAY_SECONDS) * 1000,
        });
      }
      return true;
    },
    /**
     * Hands the messages visible by now to the consumer, a batch at a time,
     * then those they sent that are visible by now, until none is left.
     */
    async consumeDue(bindings?: Env): Promise<void> {
      for (let round = 0; round < 100; round++) {
        if (!(await this.consumeBatch(bindings))) return;
      }
      throw new Error("the queue never emptied");
    },
    /** One run of the cron at the test's time. */
    cron: (bindings?: Env) => runCron(clock.now(), withQueue(bindings)),
  };
}

/** A new signing secret, made here rather than by the code under test. */
export const testSigningSecret = (): string =>
  `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;

/** An endpoint of `credentialId`, written into its home shard with its secret sealed. */
export async function insertEndpoint(
  credentialId: string,
  options: {
    url?: string;
    eventTypes?: string[];
    createdAt: number;
    previousSecret?: { secret: string; expiresAt: number };
  },
): Promise<{ id: string; secret: string }> {
  const keyring = configOf(env).webhooks.keyring;
  if (!keyring) throw new Error("the tests' WEBHOOK_KEYRING is not set");
  const id = `we_${randomBase62(24)}`;
  const secret = testSigningSecret();
  const previous = options.previousSecret;
  await eventsHome(credentialId)(shards)
    .prepare(
      `INSERT INTO webhook_endpoints (id, credential_id, url, event_types, description,
         enabled, disabled_reason, failing_since, secret, previous_secret,
         previous_secret_expires_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, NULL, 1, NULL, NULL, ?, ?, ?, ?, ?)`,
    )
    .bind(
      id,
      credentialId,
      options.url ?? "https://receiver.test/webhooks",
      JSON.stringify(options.eventTypes ?? ["*"]),
      await sealWebhookSecret(keyring, id, secret),
      previous ? await sealWebhookSecret(keyring, id, previous.secret) : null,
      previous?.expiresAt ?? null,
      options.createdAt,
      options.createdAt,
    )
    .run();
  return { id, secret };
}

/**
 * Whether `signature` (the `webhook-signature` header) holds a v1 signature
 * of the delivery by `secret`, recomputed here with Web Crypto's HMAC as the
 * Standard Webhooks specification says.
 */
export async function signedBy(
  secret: string,
  delivery: { id: string; timestamp: string; body: string; signature: string },
): Promise<boolean> {
  const key = await crypto.subtle.importKey(
    "raw",
    Uint8Array.from(atob(secret.replace(/^whsec_/, "")), (c) =>
      c.charCodeAt(0),
    ),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign(
    "HMAC",
    key,
    new TextEncoder().encode(
      `${delivery.id}.${delivery.timestamp}.${delivery.body}`,
    ),
  );
  const expected = `v1,${btoa(String.fromCharCode(...new Uint8Array(mac)))}`;
  return delivery.signature.split(" ").includes(expected);
}
