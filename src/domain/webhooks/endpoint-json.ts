import { toIsoTime } from "../../clock";
import type { WebhookEndpointRow } from "../../db/schema";
import type {
  Subscription,
  WebhookEndpoint,
} from "../../schemas/webhook-endpoint";

/** An endpoint as the API answers it, from its row: never its secrets. */
export const endpointJson = (row: WebhookEndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  events: row.eventTypes as Subscription[],
  description: row.description,
  enabled: row.enabled,
  disabled_reason: row.disabledReason as WebhookEndpoint["disabled_reason"],
  failing_since: row.failingSince === null ? null : toIsoTime(row.failingSince),
  previous_secret_expires_at:
    row.previousSecretExpiresAt === null
      ? null
      : toIsoTime(row.previousSecretExpiresAt),
  created_at: toIsoTime(row.createdAt),
  updated_at: toIsoTime(row.updatedAt),
});
