import {
  getTableColumns,
  type Placeholder,
  type SQL,
  sql,
  type Table,
} from "drizzle-orm";

/** A row of `T`, each value given, or a placeholder of a prepared query. */
type RowOf<T extends Table> = {
  [Key in keyof T["$inferSelect"]]: T["$inferSelect"][Key] | Placeholder;
};

/**
 * A row's columns as literal values, each encoded as its column stores it,
 * in the table's order: the select of an insert-select, whose `where` makes
 * the insert conditional within its batch.
 */
export const literalRow = <T extends Table>(table: T, row: RowOf<T>) =>
  Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([key, column]) => [
      key,
      sql`${sql.param(row[key as keyof typeof row], column)}`.as(column.name),
    ]),
  ) as {
    [Key in keyof T["$inferSelect"]]: SQL.Aliased<T["$inferSelect"][Key]>;
  };

/** Each column of `table` as a placeholder of its name: literalRow's row in a query prepared once. */
export const placeholderRow = <T extends Table>(table: T) =>
  Object.fromEntries(
    Object.keys(getTableColumns(table)).map((key) => [
      key,
      sql.placeholder(key),
    ]),
  ) as RowOf<T>;
