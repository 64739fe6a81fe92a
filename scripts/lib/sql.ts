// SQL text for `wrangler d1 execute`, which takes no bound parameters: values
// are inlined as literals. Free of Node APIs, so that worker tests run it too.
import { getTableColumns } from "drizzle-orm";
import { type CredentialRow, credentials } from "../../src/db/schema";

/** A SQLite literal: NULL, an integer, or a string with its quotes doubled. */
export function sqlLiteral(value: unknown): string {
  if (value === null) return "NULL";
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value))
      throw new Error(`not an integer: ${value}`);
    return String(value);
  }
  if (typeof value === "string") return `'${value.replaceAll("'", "''")}'`;
  throw new Error(`no SQL literal for a value of type ${typeof value}`);
}

/**
 * The statements that issue a key (`npm run keys -- create`): the
 * organization named `organization` unless it exists (its locale set when one
 * is given), then the credential `row` in it, whose columns come from the
 * schema. The credential takes the organization's id whichever statement
 * made it.
 */
export const issueKeySql = (
  row: CredentialRow,
  organization: { name: string; locale?: string | undefined },
): string =>
  `${organizationSql(row, organization)}\n${credentialSql(row, organization.name)}`;

/** The organization named `organization.name`, created unless it exists. */
export function organizationSql(
  row: CredentialRow,
  organization: { name: string; locale?: string | undefined },
): string {
  const onConflict = organization.locale
    ? "DO UPDATE SET document_locale = excluded.document_locale"
    : "DO NOTHING";
  return `INSERT INTO organizations (id, name, document_locale, created_at)
       VALUES (${sqlLiteral(row.organizationId)}, ${sqlLiteral(organization.name)}, ${sqlLiteral(organization.locale ?? "es")}, ${row.createdAt})
       ON CONFLICT (name) ${onConflict};`;
}

/** The credential `row` in the organization named `organizationName`, whatever its id. */
export function credentialSql(
  row: CredentialRow,
  organizationName: string,
): string {
  const columns = Object.entries(getTableColumns(credentials)).map(
    ([property, column]) => ({
      name: column.name,
      value:
        property === "organizationId"
          ? "id"
          : sqlLiteral(
              column.mapToDriverValue(row[property as keyof CredentialRow]),
            ),
    }),
  );
  return `INSERT INTO credentials (${columns.map((column) => column.name).join(", ")})
       SELECT ${columns.map((column) => column.value).join(", ")}
       FROM organizations WHERE name = ${sqlLiteral(organizationName)};`;
}

/** An organization's row as DB_0 holds it, the master of its copies. */
export interface OrganizationRow {
  id: string;
  name: string;
  document_locale: string;
  created_at: number;
}

/**
 * The copy of an organization in another shard, beside the credentials that
 * live there (src/domain/shard-routing.ts): added, or its locale brought up
 * to date.
 */
export const organizationCopySql = (organization: OrganizationRow): string =>
  `INSERT INTO organizations (id, name, document_locale, created_at)
     VALUES (${sqlLiteral(organization.id)}, ${sqlLiteral(organization.name)}, ${sqlLiteral(organization.document_locale)}, ${sqlLiteral(organization.created_at)})
     ON CONFLICT (id) DO UPDATE SET document_locale = excluded.document_locale;`;
