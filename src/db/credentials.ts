import { eq } from "drizzle-orm";
import type { Database } from "./client";
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
  const [row] = await db
    .select({
      credential: credentials,
      documentLocale: organizations.documentLocale,
    })
    .from(credentials)
    .innerJoin(organizations, eq(organizations.id, credentials.organizationId))
    .where(eq(credentials.keyHash, keyHash))
    .limit(1);
  return row && { ...row.credential, documentLocale: row.documentLocale };
}

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
