import { getTableColumns, type SQL, sql, type Table } from "drizzle-orm";

/**
 * A row's columns as literal values, each encoded as its column stores it,
 * in the table's order: the select of an insert-select, whose `where` makes
 * the insert conditional within its batch.
 */
export const literalRow = <T extends Table>(table: T, row: T["$inferSelect"]) =>
  Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([key, column]) => [
      key,
      sql`${sql.param(row[key as keyof typeof row], column)}`.as(column.name),
    ]),
  ) as {
    [Key in keyof T["$inferSelect"]]: SQL.Aliased<T["$inferSelect"][Key]>;
  };
