import { rotateEndpointSecret } from "../../db/webhook-endpoints";
import { notFound } from "../../errors";
import type { WebhookEndpoint } from "../../schemas/webhook-endpoint";
import { sealWebhookSecret } from "../../storage/webhook-secret-box";
import type { Credential } from "../authenticate";
import { newSigningSecret } from "../events/signature";
import type { Services } from "../services";
import { endpointJson } from "./endpoint-json";
import { endpointsShard } from "./endpoints";

/**
 * How long the secret a rotation replaces keeps signing beside the new one,
 * so that a receiver can change its secret without missing a delivery.
 */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/**
 * A new signing secret for the endpoint, shown this once. Its secret until
 * now keeps signing for SECRET_OVERLAP_MS; a second rotation within that
 * time makes the secret it replaces the previous one, and the older one
 * stops signing at once.
 */
export async function rotateSecret(
  services: Pick<Services, "shards" | "shardsBefore" | "clock" | "webhooks">,
  credential: Credential,
  id: string,
): Promise<WebhookEndpoint & { secret: string }> {
  const secret = newSigningSecret();
  const now = services.clock.now();
  const row = await rotateEndpointSecret(
    await endpointsShard(services, credential),
    credential.id,
    id,
    {
      sealed: await sealWebhookSecret(services.webhooks.keyring(), id, secret),
      previousExpiresAt: now + SECRET_OVERLAP_MS,
      now,
    },
  );
  if (!row) throw notFound();
  return { ...endpointJson(row), secret };
}
