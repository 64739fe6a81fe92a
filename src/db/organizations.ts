import { eq, sql } from "drizzle-orm";
import type { Database } from "./client";
import { type OrganizationRow, organizations } from "./schema";

/**
 * The master row of the organization named `organization.name` in the
 * directory shard: created unless it exists, its locale set when `setLocale`;
 * the row as stored, whichever request made it.
 */
export async function upsertMasterOrganization(
  db: Database,
  organization: OrganizationRow,
  setLocale: boolean,
): Promise<OrganizationRow> {
  const insert = db.insert(organizations).values(organization);
  const [, [stored]] = await db.batch([
    setLocale
      ? insert.onConflictDoUpdate({
          target: organizations.name,
          set: { documentLocale: organization.documentLocale },
        })
      : insert.onConflictDoNothing({ target: organizations.name }),
    db
      .select()
      .from(organizations)
      .where(eq(organizations.name, organization.name)),
  ]);
  if (!stored) throw new Error("the organization was not created");
  return stored;
}

/**
 * The copy of an organization in another shard, beside the credentials that
 * live there (src/domain/shard-routing.ts): added, or its locale brought up
 * to date. A statement, to run alone or in a batch.
 */
export const copyOrganization = (db: Database, organization: OrganizationRow) =>
  db
    .insert(organizations)
    .values(organization)
    .onConflictDoUpdate({
      target: organizations.id,
      set: { documentLocale: sql`excluded.document_locale` },
    });

/** Sets the locale of the organization named `name` in this shard; whether it is there. */
export async function setOrganizationLocale(
  db: Database,
  name: string,
  locale: string,
): Promise<boolean> {
  const updated = await db
    .update(organizations)
    .set({ documentLocale: locale })
    .where(eq(organizations.name, name))
    .returning({ id: organizations.id });
  return updated.length > 0;
}
