// One shard's database as D1 keeps it, in node:sqlite: a fresh SQLite file
// with every migration of migrations/ applied, statements built by drizzle
// from src/db/schema.ts, and its pages counted with the dbstat table.
import { readdirSync, readFileSync } from "node:fs";
import {
  DatabaseSync,
  type SQLInputValue,
  type StatementSync,
} from "node:sqlite";
import { drizzle } from "drizzle-orm/sqlite-proxy";

const MIGRATIONS = new URL("../../migrations/", import.meta.url);

/** Builds statements only: nothing runs through it. */
export const sql = drizzle(async () => ({ rows: [] }));

/** A statement as drizzle builds it. */
export interface Built {
  sql: string;
  params: unknown[];
}

export const built = (query: { toSQL(): Built }): Built => query.toSQL();

export class ShardDatabase {
  private readonly sqlite: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();

  constructor(path: string) {
    this.sqlite = new DatabaseSync(path);
    // Durability settings change no page's layout, only the time to fill it.
    this.sqlite.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;");
    for (const file of readdirSync(MIGRATIONS)
      .filter((name) => name.endsWith(".sql"))
      .sort()) {
      for (const statement of readFileSync(new URL(file, MIGRATIONS), "utf8")
        .split("--> statement-breakpoint")
        .filter((text) => text.trim() !== "")) {
        this.sqlite.exec(statement);
      }
    }
  }

  private prepare(text: string): StatementSync {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.sqlite.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  run(statement: Built): void {
    this.prepare(statement.sql).run(...(statement.params as SQLInputValue[]));
  }

  all(statement: Built): unknown[] {
    return this.prepare(statement.sql).all(
      ...(statement.params as SQLInputValue[]),
    );
  }

  /** The statements in one transaction, as D1 runs a batch. */
  batch(statements: readonly Built[]): void {
    this.sqlite.exec("BEGIN");
    for (const statement of statements) this.run(statement);
    this.sqlite.exec("COMMIT");
  }

  /** Bytes of pages (4 KiB each) held by each table, its indexes included. */
  bytesByTable(): Map<string, number> {
    const rows = this.sqlite
      .prepare(
        `SELECT s.tbl_name AS tableName, sum(d.pgsize) AS bytes
         FROM dbstat AS d JOIN sqlite_schema AS s ON s.name = d.name
         WHERE d.aggregate = TRUE GROUP BY s.tbl_name`,
      )
      .all() as { tableName: string; bytes: number }[];
    return new Map(rows.map((row) => [row.tableName, row.bytes]));
  }

  vacuum(): void {
    this.sqlite.exec("VACUUM");
  }

  close(): void {
    this.sqlite.close();
  }
}
