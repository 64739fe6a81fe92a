import { toIsoTime } from "../../clock";
import {
  insertCredentialBeside,
  realCredentials,
  revokeCredential as revokeIn,
} from "../../db/credentials";
import {
  copyOrganization,
  setOrganizationLocale as setLocaleIn,
  upsertMasterOrganization,
} from "../../db/organizations";
import { disableRevokedEndpoints } from "../../db/webhook-endpoints";
import { notFound } from "../../errors";
import type { IssueKeyRequest } from "../../schemas/ops";
import { newCredential } from "../api-keys";
import { eventsHome } from "../events/home";
import { newId } from "../random";
import type { Services } from "../services";
import {
  credentialShard,
  directoryShard,
  shardsHolding,
} from "../shard-routing";

// Key management for support (the operations API, docs/operations.md):
// an organization's master row in the directory shard and a copy in every
// shard; a credential in the shard of its key's hash, found by
// authentication from the key alone (src/domain/shard-routing.ts).

type KeyServices = Pick<Services, "shards" | "clock">;

export interface IssuedKey {
  key: string;
  credential_id: string;
  organization_id: string;
}

/**
 * Creates the organization unless it exists (or sets its locale when one is
 * given) and copies it to every shard, with a new credential in its key's
 * shard. The plain key is returned once and stored nowhere. A failed call
 * may leave a credential nobody holds the key of: harmless, and listed.
 */
export async function issueKey(
  services: KeyServices,
  request: IssueKeyRequest,
): Promise<IssuedKey> {
  const { shards, clock } = services;
  const createdAt = clock.now();
  const directory = directoryShard(shards);
  const organization = await upsertMasterOrganization(
    directory,
    {
      // Used only if the organization is new.
      id: newId("org"),
      name: request.organization,
      documentLocale: request.document_locale ?? "es",
      createdAt,
    },
    request.document_locale !== undefined,
  );
  const { key, row } = await newCredential({
    organizationId: organization.id,
    environment: request.environment,
    createdAt,
    allowedIps: request.allowed_ips,
    rateLimitPerMinute: request.rate_limit_per_minute,
  });
  const home = credentialShard(shards, row.keyHash, row.environment);
  await Promise.all(
    shards.map((db) => {
      const copy = db === directory ? null : organization;
      if (db === home) return insertCredentialBeside(db, copy, row);
      return copy ? copyOrganization(db, copy) : undefined;
    }),
  );
  return { key, credential_id: row.id, organization_id: organization.id };
}

/**
 * Revokes a credential wherever it lives; 404 when there is no such
 * unrevoked one. Its webhook endpoints are disabled first, in every home
 * they may be in, with their pending deliveries failed: the relay and the
 * deliveries read no credential, so a revocation whose answer is lost after
 * the credential's rows changed (a call again is a 404) must have stopped
 * its webhooks already.
 */
export async function revokeKey(
  services: Pick<Services, "shards" | "shardsBefore" | "clock">,
  credentialId: string,
): Promise<{ credential_id: string; revoked: true }> {
  const revokedAt = services.clock.now();
  await Promise.all(
    shardsHolding(services, eventsHome(credentialId)).map((db) =>
      disableRevokedEndpoints(db, credentialId, revokedAt),
    ),
  );
  const revoked = await Promise.all(
    services.shards.map((db) => revokeIn(db, credentialId, revokedAt)),
  );
  if (!revoked.includes(true)) throw notFound();
  return { credential_id: credentialId, revoked: true };
}

/** Every credential but demo tokens, by organization then age, showing only the key's prefix and last four characters. */
export async function listKeys(services: KeyServices) {
  const rows = (await Promise.all(services.shards.map(realCredentials))).flat();
  rows.sort(
    (a, b) =>
      a.organization.name.localeCompare(b.organization.name) ||
      a.credential.createdAt - b.credential.createdAt,
  );
  return rows.map(({ credential, organization }) => ({
    credential_id: credential.id,
    organization_id: organization.id,
    organization: organization.name,
    document_locale: organization.documentLocale,
    environment: credential.environment,
    key: `${credential.keyPrefix}…${credential.keyLastFour}`,
    allowed_ips: credential.allowedIps,
    rate_limit_per_minute: credential.rateLimitPerMinute,
    created_at: toIsoTime(credential.createdAt),
    revoked_at:
      credential.revokedAt === null ? null : toIsoTime(credential.revokedAt),
  }));
}

/** Sets the PDF language of an organization's future documents in every copy; 404 when it does not exist. */
export async function setOrganizationLocale(
  services: KeyServices,
  organization: string,
  locale: string,
): Promise<{ organization: string; document_locale: string }> {
  const [inDirectory] = await Promise.all(
    services.shards.map((db) => setLocaleIn(db, organization, locale)),
  );
  if (!inDirectory) throw notFound();
  return { organization, document_locale: locale };
}
