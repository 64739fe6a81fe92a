import { eq } from "drizzle-orm";
import type { Database } from "./client";
import { organizations } from "./schema";

/** The PDF language an organization has chosen for documents issued now. */
export async function findOrganizationLocale(
  db: Database,
  organizationId: string,
): Promise<string | undefined> {
  const row = await db.query.organizations.findFirst({
    columns: { documentLocale: true },
    where: eq(organizations.id, organizationId),
  });
  return row?.documentLocale;
}
