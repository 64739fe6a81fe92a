import type { EventRow, WebhookEndpointRow } from "../../db/schema";
import type { Keyring } from "../../storage/keyring";
import { openWebhookSecret } from "../../storage/webhook-secret-box";
import { eventPayload } from "./payload";
import { signatureHeader } from "./signature";

/** How long a receiver has to answer a delivery. */
const WEBHOOK_TIMEOUT_MS = 10_000;

const USER_AGENT = "DeCA-Webhooks/1";

/**
 * The secrets that sign a delivery made at `at`: the endpoint's current
 * one, and after a rotation the former one until it expires.
 */
async function signingSecrets(
  keyring: Keyring,
  endpoint: WebhookEndpointRow,
  at: number,
): Promise<string[]> {
  const open = (sealed: string) =>
    openWebhookSecret(keyring, endpoint.id, sealed);
  const previous =
    endpoint.previousSecret !== null &&
    endpoint.previousSecretExpiresAt !== null &&
    endpoint.previousSecretExpiresAt > at
      ? [await open(endpoint.previousSecret)]
      : [];
  return [await open(endpoint.secret), ...previous];
}

/**
 * The POST of `event` to `endpoint` made at `at`, with the Standard Webhooks
 * headers (the event's id as `webhook-id` on every attempt, so a receiver
 * can drop a duplicate), a 10 s timeout, and redirects not followed.
 */
export async function webhookRequest(
  keyring: Keyring,
  endpoint: WebhookEndpointRow,
  event: EventRow,
  at: number,
): Promise<Request> {
  const body = JSON.stringify(eventPayload(event));
  const timestamp = Math.floor(at / 1000);
  const signature = await signatureHeader(
    await signingSecrets(keyring, endpoint, at),
    { id: event.id, timestamp, body },
  );
  return new Request(endpoint.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": USER_AGENT,
      "webhook-id": event.id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signature,
    },
    body,
    redirect: "manual",
    signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
  });
}
