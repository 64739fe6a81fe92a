import type { Database } from "../../db/client";
import {
  deleteEndpoint as deleteEndpointRow,
  findEndpoint,
  insertEndpointUnderLimit,
  listEndpoints as listEndpointRows,
  updateEndpoint as updateEndpointRow,
} from "../../db/webhook-endpoints";
import { DomainError, notFound, ValidationError } from "../../errors";
import type {
  CreateWebhookEndpoint,
  UpdateWebhookEndpoint,
  WebhookEndpoint,
} from "../../schemas/webhook-endpoint";
import { webhookUrlRefusal } from "../../schemas/webhook-url";
import { sealWebhookSecret } from "../../storage/webhook-secret-box";
import type { Credential } from "../authenticate";
import { homeHolding } from "../events/home";
import { newSigningSecret } from "../events/signature";
import { newId } from "../random";
import type { Services } from "../services";
import { endpointJson } from "./endpoint-json";

// The endpoints API's rules (docs/api.md, Webhook endpoints): a credential's
// endpoints live in its home shard, and only it reaches them.

/** The most webhook endpoints a credential may have. */
export const MAX_WEBHOOK_ENDPOINTS = 16;

type EndpointServices = Pick<
  Services,
  "shards" | "shardsBefore" | "clock" | "webhooks"
>;

/** What places a credential's endpoints: the operations API names a revoked key so. */
type EndpointsOwner = Pick<Credential, "id" | "environment">;

/** The credential's home shard, holding all its endpoints (even while a rebalance moves them). */
export const endpointsShard = (
  services: Pick<Services, "shards" | "shardsBefore">,
  credential: EndpointsOwner,
): Promise<Database> => homeHolding(services, [credential.id]);

/** Refuses a URL this deployment may not deliver to (production: https:// to public hosts only). */
function checkUrl(services: EndpointServices, url: string | undefined) {
  const refusal =
    url === undefined ? null : webhookUrlRefusal(url, services.webhooks);
  if (refusal) throw new ValidationError([{ field: "url", ...refusal }]);
}

/** A new endpoint, enabled, with its signing secret shown this once. */
export async function createEndpoint(
  services: EndpointServices,
  credential: Credential,
  body: CreateWebhookEndpoint,
): Promise<WebhookEndpoint & { secret: string }> {
  checkUrl(services, body.url);
  const id = newId("we");
  const secret = newSigningSecret();
  const now = services.clock.now();
  const row = {
    id,
    credentialId: credential.id,
    url: body.url,
    eventTypes: body.events,
    description: body.description,
    enabled: true,
    disabledReason: null,
    failingSince: null,
    secret: await sealWebhookSecret(services.webhooks.keyring(), id, secret),
    previousSecret: null,
    previousSecretExpiresAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const db = await endpointsShard(services, credential);
  if (!(await insertEndpointUnderLimit(db, row, MAX_WEBHOOK_ENDPOINTS))) {
    throw new DomainError("WEBHOOK_ENDPOINT_LIMIT", {
      limit: MAX_WEBHOOK_ENDPOINTS,
    });
  }
  return { ...endpointJson(row), secret };
}

export async function listEndpoints(
  services: EndpointServices,
  credential: EndpointsOwner,
): Promise<{ data: WebhookEndpoint[] }> {
  const rows = await listEndpointRows(
    await endpointsShard(services, credential),
    credential.id,
  );
  return { data: rows.map(endpointJson) };
}

/** The credential's endpoint `id`; 404 for an unknown one or another credential's. */
export async function getEndpoint(
  services: EndpointServices,
  credential: Credential,
  id: string,
): Promise<WebhookEndpoint> {
  const row = await findEndpoint(
    await endpointsShard(services, credential),
    credential.id,
    id,
  );
  if (!row) throw notFound();
  return endpointJson(row);
}

export async function updateEndpoint(
  services: EndpointServices,
  credential: Credential,
  id: string,
  body: UpdateWebhookEndpoint,
): Promise<WebhookEndpoint> {
  checkUrl(services, body.url);
  const { events, ...rest } = body;
  const row = await updateEndpointRow(
    await endpointsShard(services, credential),
    credential.id,
    id,
    { ...rest, eventTypes: events },
    services.clock.now(),
  );
  if (!row) throw notFound();
  return endpointJson(row);
}

/** Deletes the endpoint; its deliveries still pending fail with it. */
export async function deleteEndpoint(
  services: EndpointServices,
  credential: EndpointsOwner,
  id: string,
): Promise<void> {
  const deleted = await deleteEndpointRow(
    await endpointsShard(services, credential),
    credential.id,
    id,
    services.clock.now(),
  );
  if (!deleted) throw notFound();
}
