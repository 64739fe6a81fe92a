import { eq } from "drizzle-orm";
import type { Database } from "./client";
import { type CredentialRow, credentials, organizations } from "./schema";

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
