import type { WebhookUrlPolicy } from "../../schemas/webhook-url";
import type { Keyring } from "../../storage/keyring";

/** What the webhooks take from the configuration. */
export interface WebhookSettings extends WebhookUrlPolicy {
  /**
   * WEBHOOK_KEYRING, under which the signing secrets are sealed; throws a
   * configuration error where it is not set (the edge Worker never needs it).
   */
  keyring(): Keyring;
}
