// One shard's database as D1 keeps it, in node:sqlite: a fresh SQLite
// database with every migration of migrations/ applied, reached through the
// service's own client (src/db/client.ts) over d1-on-sqlite.ts, and its
// pages counted with the dbstat table.
import { readdirSync, readFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { type Database, openDatabase } from "../../src/db/client";
import { D1OnSqlite, type RoundTrip } from "./d1-on-sqlite";

const MIGRATIONS = new URL("../../migrations/", import.meta.url);

export class ShardDatabase {
  private readonly sqlite: DatabaseSync;
  private readonly d1: D1OnSqlite;
  /** What src/db's functions take: drizzle over this shard. */
  readonly db: Database;

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
    this.d1 = new D1OnSqlite(this.sqlite);
    this.db = openDatabase(this.d1 as unknown as D1Database);
  }

  /** The round trips to D1 that `work` makes, with its result. */
  async roundTrips<T>(
    work: (db: Database) => Promise<T>,
  ): Promise<{ result: T; trips: RoundTrip[] }> {
    this.d1.trips.length = 0;
    const result = await work(this.db);
    return { result, trips: this.d1.trips.splice(0) };
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

  /** Rows inserted, updated or deleted so far (not their index entries). */
  rowsChanged(): number {
    const row = this.sqlite.prepare("SELECT total_changes() AS n").get() as {
      n: number;
    };
    return row.n;
  }

  vacuum(): void {
    this.sqlite.exec("VACUUM");
  }

  close(): void {
    this.sqlite.close();
  }
}
