import { and, eq, isNull, ne, sql } from "drizzle-orm";
import { oncePer } from "../once-per";
import type { Database } from "./client";
import { copyOrganization } from "./organizations";
import {
  type CredentialRow,
  credentials,
  type OrganizationRow,
  organizations,
} from "./schema";

/**
 * A credential by its key's hash, with the PDF language its organization has
 * chosen for documents issued now: one query serves every request's
 * authentication and an issue's language.
 */
export async function findCredentialByKeyHash(
  db: Database,
  keyHash: string,
): Promise<(CredentialRow & { documentLocale: string }) | undefined> {
  const [row] = await credentialByKeyHash(db).all({ keyHash });
  return row && { ...row.credential, documentLocale: row.documentLocale };
}

// Built and prepared once per database, run with each request's values:
// building a query costs drizzle more than a read's own work (bench/README.md).
const credentialByKeyHash = oncePer((db: Database) =>
  db
    .select({
      credential: credentials,
      documentLocale: organizations.documentLocale,
    })
    .from(credentials)
    .innerJoin(organizations, eq(organizations.id, credentials.organizationId))
    .where(eq(credentials.keyHash, sql.placeholder("keyHash")))
    .limit(1)
    .prepare(),
);

/** A new organization and its first credential, in one batch. */
export async function insertOrganizationWithCredential(
  db: Database,
  organization: OrganizationRow,
  credential: CredentialRow,
): Promise<void> {
  await db.batch([
    db.insert(organizations).values(organization),
    db.insert(credentials).values(credential),
  ]);
}

/** A new credential of an existing organization. */
export async function insertCredential(
  db: Database,
  credential: CredentialRow,
): Promise<void> {
  await db.insert(credentials).values(credential);
}

/**
 * A new credential in its key's shard, with the copy of its organization
 * that shard holds (none in the directory shard, which has the master).
 */
export async function insertCredentialBeside(
  db: Database,
  organizationCopy: OrganizationRow | null,
  credential: CredentialRow,
): Promise<void> {
  const insert = db.insert(credentials).values(credential);
  if (organizationCopy) {
    await db.batch([copyOrganization(db, organizationCopy), insert]);
  } else {
    await insert;
  }
}

/** Revokes a credential in this shard unless it is revoked; whether it was here and active. */
export async function revokeCredential(
  db: Database,
  id: string,
  revokedAt: number,
): Promise<boolean> {
  const revoked = await db
    .update(credentials)
    .set({ revokedAt })
    .where(and(eq(credentials.id, id), isNull(credentials.revokedAt)))
    .returning({ id: credentials.id });
  return revoked.length > 0;
}

/** The credentials of this shard that are not demo tokens, with their organization. */
export const realCredentials = (db: Database) =>
  db
    .select({
      credential: credentials,
      organization: organizations,
    })
    .from(credentials)
    .innerJoin(organizations, eq(organizations.id, credentials.organizationId))
    .where(ne(credentials.environment, "demo"));
