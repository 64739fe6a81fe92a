import { env } from "cloudflare:test";
import { is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/db/schema";

// The migrations only add (docs/operations.md "Migrations"): `npm run
// deploy` applies them while the previous release still serves, so none may
// remove, rename or rewrite what it reads, move rows, or add a constraint its
// writes may break. Removing is a contract migration (`NNNN_contract_….sql`),
// in a release after the one that stopped reading what it drops.

/** Up to 0004, before the rule: 0004 rebuilt tables and dropped a column. */
const LAST_BEFORE_THE_RULE = 4;

/** The SQL without comments, string literals and foreign-key actions, in capitals. */
const statementWords = (sql: string): string =>
  sql
    .replace(/--[^\n]*/g, " ")
    .replace(/\/\*[\s\S]*?\*\//g, " ")
    .replace(/'(?:[^']|'')*'/g, "''")
    .toUpperCase()
    .replace(/\bON\s+(DELETE|UPDATE)\b/g, " ");

const NOT_EXPAND: [RegExp, string][] = [
  [/\bDROP\b/, "drops"],
  [/\bRENAME\b/, "renames"],
  [/\b(INSERT|UPDATE|DELETE|REPLACE)\b/, "writes rows"],
  [/\bCREATE\s+UNIQUE\s+INDEX\b/, "adds a constraint"],
];

/** Why `sql` is not an expand-only migration, or nothing when it is. */
const notExpand = (sql: string): string[] =>
  NOT_EXPAND.filter(([pattern]) => pattern.test(statementWords(sql))).map(
    ([, why]) => why,
  );

const number = (name: string) => Number.parseInt(name, 10);
const isContract = (name: string) => /^\d{4}_contract_/.test(name);
const ruled = env.TEST_MIGRATIONS.filter(
  ({ name }) => number(name) > LAST_BEFORE_THE_RULE,
);

/** The columns of this commit's schema, `table.column`, and its tables. */
const read = new Set(
  Object.values(schema)
    .filter((value) => is(value, SQLiteTable))
    .flatMap((table) => {
      const { name, columns } = getTableConfig(table);
      return [name, ...columns.map((column) => `${name}.${column.name}`)];
    }),
);

/** What a contract migration drops: `table.column` or `table`. */
const dropped = (sql: string): string[] =>
  [
    ...sql.matchAll(
      /ALTER\s+TABLE\s+[`"]?(\w+)[`"]?\s+DROP\s+(?:COLUMN\s+)?[`"]?(\w+)/gi,
    ),
  ]
    .map(([, table, column]) => `${table}.${column}`)
    .concat(
      [...sql.matchAll(/DROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?[`"]?(\w+)/gi)].map(
        ([, table]) => String(table),
      ),
    );

describe("migrations", () => {
  it("tells what only adds from what does not", () => {
    expect(
      notExpand(
        "CREATE TABLE `t` (`a` text REFERENCES `u`(`id`) ON DELETE CASCADE); -- DROP nothing\nALTER TABLE `t` ADD `deleted_at` integer DEFAULT 'DROP';",
      ),
    ).toEqual([]);
    expect(notExpand("ALTER TABLE `t` DROP COLUMN `a`;")).toEqual(["drops"]);
    expect(notExpand("ALTER TABLE `t` RENAME TO `u`;")).toEqual(["renames"]);
    expect(notExpand("UPDATE `t` SET `a` = 1;")).toEqual(["writes rows"]);
    expect(notExpand("CREATE UNIQUE INDEX `i` ON `t` (`a`);")).toEqual([
      "adds a constraint",
    ]);
    // The last migration before the rule rebuilt tables: it would be refused.
    const before = env.TEST_MIGRATIONS.find(
      ({ name }) => number(name) === LAST_BEFORE_THE_RULE,
    );
    expect(notExpand(before?.queries.join("\n") ?? "")).toEqual([
      "drops",
      "renames",
      "writes rows",
      "adds a constraint",
    ]);
  });

  it("only add after 0004, but a contract migration", () => {
    expect(ruled.length).toBeGreaterThan(0);
    const refused = ruled
      .filter(({ name }) => !isContract(name))
      .map(({ name, queries }) => ({
        name,
        why: notExpand(queries.join("\n")),
      }))
      .filter(({ why }) => why.length > 0);
    expect(refused).toEqual([]);
  });

  it("contract: drop only what this commit's Worker no longer reads", () => {
    expect(read).toContain("documents.archived_at");
    expect(dropped("ALTER TABLE `documents` DROP COLUMN `data`;")).toEqual([
      "documents.data",
    ]);
    const stillRead = ruled
      .filter(({ name }) => isContract(name))
      .flatMap(({ queries }) => dropped(queries.join("\n")))
      .filter((what) => read.has(what));
    expect(stillRead).toEqual([]);
  });
});
