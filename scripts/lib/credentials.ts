import { newCredential } from "../../src/domain/api-keys";
import { newId } from "../../src/domain/random";
import { type DatabaseTarget, executeSql } from "./d1";
import { DIRECTORY_SHARD } from "./shards";
import { issueKeySql, sqlLiteral as q } from "./sql";

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

/**
 * Creates the organization if it is new (or sets its locale when one is
 * given), then a credential in it; the plain key is returned once and stored
 * nowhere.
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
  const results = await executeSql(
    target,
    DIRECTORY_SHARD,
    `${issueKeySql(row, { name: options.organization, locale: options.locale })}
     SELECT organization_id FROM credentials WHERE id = ${q(row.id)};`,
  );
  const organizationId = results[2]?.[0]?.organization_id;
  if (typeof organizationId !== "string") {
    throw new Error("the credential was not created");
  }
  return { key, credential_id: row.id, organization_id: organizationId };
}

/** Revokes a credential; false when there is no such unrevoked credential. */
export async function revokeCredential(
  target: DatabaseTarget,
  credentialId: string,
): Promise<boolean> {
  const results = await executeSql(
    target,
    DIRECTORY_SHARD,
    `UPDATE credentials SET revoked_at = ${Date.now()}
       WHERE id = ${q(credentialId)} AND revoked_at IS NULL RETURNING id;`,
  );
  return (results[0]?.length ?? 0) > 0;
}

/** Every non-demo credential, with only the prefix and last four characters of its key. */
export async function listCredentials(
  target: DatabaseTarget,
): Promise<Record<string, unknown>[]> {
  const results = await executeSql(
    target,
    DIRECTORY_SHARD,
    `SELECT c.id AS credential_id, o.id AS organization_id, o.name AS organization,
         o.document_locale, c.environment, c.key_prefix || '…' || c.key_last_four AS key,
         c.allowed_ips, c.rate_limit_per_minute, c.created_at, c.revoked_at
       FROM credentials c JOIN organizations o ON o.id = c.organization_id
       WHERE c.environment != 'demo'
       ORDER BY o.name, c.created_at;`,
  );
  return (results[0] ?? []).map((row) => ({
    ...row,
    allowed_ips: JSON.parse(String(row.allowed_ips)),
    created_at: new Date(Number(row.created_at)).toISOString(),
    revoked_at:
      row.revoked_at === null
        ? null
        : new Date(Number(row.revoked_at)).toISOString(),
  }));
}

/** Sets the PDF language of an organization's future documents; false when it does not exist. */
export async function setOrganizationLocale(
  target: DatabaseTarget,
  organization: string,
  locale: string,
): Promise<boolean> {
  const results = await executeSql(
    target,
    DIRECTORY_SHARD,
    `UPDATE organizations SET document_locale = ${q(locale)}
       WHERE name = ${q(organization)} RETURNING id;`,
  );
  return (results[0]?.length ?? 0) > 0;
}

/** Whether a credential exists and is not revoked (for the development key of `npm start`). */
export async function isActiveCredential(
  target: DatabaseTarget,
  credentialId: string,
): Promise<boolean> {
  const results = await executeSql(
    target,
    DIRECTORY_SHARD,
    `SELECT id FROM credentials WHERE id = ${q(credentialId)} AND revoked_at IS NULL;`,
  );
  return (results[0]?.length ?? 0) > 0;
}
