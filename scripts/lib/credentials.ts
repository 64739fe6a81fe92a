import {
  environmentOfKey,
  hashApiKey,
  newCredential,
} from "../../src/domain/api-keys";
import { newId } from "../../src/domain/random";
import { credentialShard } from "../../src/domain/shard-routing";
import { type DatabaseTarget, executeSql } from "./d1";
import { DIRECTORY_SHARD, targetShards } from "./shards";
import {
  credentialSql,
  type OrganizationRow,
  organizationCopySql,
  organizationSql,
  sqlLiteral as q,
} from "./sql";

// Where the key tool's rows live (src/domain/shard-routing.ts): an
// organization's master row in DB_0 and a copy in every shard; a credential
// in the shard of its key's hash, found by authentication from the key alone.

export interface IssueKeyOptions {
  organization: string;
  environment: "test" | "live";
  locale?: string | undefined;
  allowedIps: string[];
  rateLimitPerMinute?: number | undefined;
}

export interface IssuedKey {
  key: string;
  credential_id: string;
  organization_id: string;
}

/** Runs `sql` on every shard, DB_0 first, and returns each shard's statement results. */
const onEveryShard = (target: DatabaseTarget, sql: string) =>
  Promise.all(
    targetShards(target).map((binding) => executeSql(target, binding, sql)),
  );

/**
 * Creates the organization in DB_0 if it is new (or sets its locale when one
 * is given) and copies it to every other shard, then a credential in it, in
 * its key's shard; the plain key is returned once and stored nowhere.
 */
export async function issueKey(
  target: DatabaseTarget,
  options: IssueKeyOptions,
): Promise<IssuedKey> {
  const { key, row } = await newCredential({
    // Used only if the organization is new.
    organizationId: newId("org"),
    environment: options.environment,
    createdAt: Date.now(),
    allowedIps: options.allowedIps,
    rateLimitPerMinute: options.rateLimitPerMinute,
  });
  const shards = targetShards(target);
  const home = credentialShard(shards, row.keyHash, row.environment);
  const [, [master] = []] = await executeSql(
    target,
    DIRECTORY_SHARD,
    `${organizationSql(row, { name: options.organization, locale: options.locale })}
     SELECT id, name, document_locale, created_at FROM organizations
       WHERE name = ${q(options.organization)};`,
  );
  if (!master) throw new Error("the organization was not created");
  let organizationId: unknown;
  for (const binding of shards) {
    const copy =
      binding === DIRECTORY_SHARD
        ? ""
        : organizationCopySql(master as unknown as OrganizationRow);
    if (binding !== home) {
      if (copy) await executeSql(target, binding, copy);
      continue;
    }
    const results = await executeSql(
      target,
      binding,
      `${copy}
       ${credentialSql(row, options.organization)}
       SELECT organization_id FROM credentials WHERE id = ${q(row.id)};`,
    );
    organizationId = results.at(-1)?.[0]?.organization_id;
  }
  if (typeof organizationId !== "string") {
    throw new Error("the credential was not created");
  }
  return { key, credential_id: row.id, organization_id: organizationId };
}

/** Revokes a credential, wherever it lives; false when there is no such unrevoked credential. */
export async function revokeCredential(
  target: DatabaseTarget,
  credentialId: string,
): Promise<boolean> {
  const revokedAt = Date.now();
  const results = await onEveryShard(
    target,
    `UPDATE credentials SET revoked_at = ${revokedAt}
       WHERE id = ${q(credentialId)} AND revoked_at IS NULL RETURNING id;`,
  );
  return results.some((shard) => (shard[0]?.length ?? 0) > 0);
}

/** Every non-demo credential of every shard, with only the prefix and last four characters of its key. */
export async function listCredentials(
  target: DatabaseTarget,
): Promise<Record<string, unknown>[]> {
  const results = await onEveryShard(
    target,
    `SELECT c.id AS credential_id, o.id AS organization_id, o.name AS organization,
         o.document_locale, c.environment, c.key_prefix || '…' || c.key_last_four AS key,
         c.allowed_ips, c.rate_limit_per_minute, c.created_at, c.revoked_at
       FROM credentials c JOIN organizations o ON o.id = c.organization_id
       WHERE c.environment != 'demo';`,
  );
  return results
    .flatMap((shard) => shard[0] ?? [])
    .sort(
      (a, b) =>
        String(a.organization).localeCompare(String(b.organization)) ||
        Number(a.created_at) - Number(b.created_at),
    )
    .map((row) => ({
      ...row,
      allowed_ips: JSON.parse(String(row.allowed_ips)),
      created_at: new Date(Number(row.created_at)).toISOString(),
      revoked_at:
        row.revoked_at === null
          ? null
          : new Date(Number(row.revoked_at)).toISOString(),
    }));
}

/** Sets the PDF language of an organization's future documents, in every copy; false when it does not exist. */
export async function setOrganizationLocale(
  target: DatabaseTarget,
  organization: string,
  locale: string,
): Promise<boolean> {
  const results = await onEveryShard(
    target,
    `UPDATE organizations SET document_locale = ${q(locale)}
       WHERE name = ${q(organization)} RETURNING id;`,
  );
  return (results[0]?.[0]?.length ?? 0) > 0;
}

/** Whether the credential of `key` exists and is not revoked (for the development key of `npm start`). */
export async function isActiveCredential(
  target: DatabaseTarget,
  credential: { key: string; credential_id: string },
): Promise<boolean> {
  const environment = environmentOfKey(credential.key);
  if (!environment) return false;
  const results = await executeSql(
    target,
    credentialShard(
      targetShards(target),
      await hashApiKey(credential.key),
      environment,
    ),
    `SELECT id FROM credentials
       WHERE id = ${q(credential.credential_id)} AND revoked_at IS NULL;`,
  );
  return (results[0]?.length ?? 0) > 0;
}
