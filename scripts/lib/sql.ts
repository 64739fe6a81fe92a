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
export function issueKeySql(
  row: CredentialRow,
  organization: { name: string; locale?: string | undefined },
): string {
  const name = sqlLiteral(organization.name);
  const onConflict = organization.locale
    ? "DO UPDATE SET document_locale = excluded.document_locale"
    : "DO NOTHING";
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
  return `INSERT INTO organizations (id, name, document_locale, created_at)
       VALUES (${sqlLiteral(row.organizationId)}, ${name}, ${sqlLiteral(organization.locale ?? "es")}, ${row.createdAt})
       ON CONFLICT (name) ${onConflict};
     INSERT INTO credentials (${columns.map((column) => column.name).join(", ")})
       SELECT ${columns.map((column) => column.value).join(", ")}
       FROM organizations WHERE name = ${name};`;
}
