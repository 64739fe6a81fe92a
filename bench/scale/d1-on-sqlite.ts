// The part of the D1 binding that drizzle's D1 driver uses (prepare, bind,
// all, run, raw, first, batch), answered by a node:sqlite database, so that
// the service's own src/db functions run unchanged in Node. Every call that
// reaches D1 (a statement or a batch: one round trip, one transaction) is
// logged with its local time and whether it wrote.
import { performance } from "node:perf_hooks";
import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite";

/** One call that would reach D1. The log is emptied by ShardDatabase.roundTrips. */
export interface RoundTrip {
  write: boolean;
  ms: number;
}

type Row = Record<string, SQLInputValue>;

const WRITE = /^\s*(insert|update|delete|replace)\b/i;

export class D1OnSqlite {
  readonly trips: RoundTrip[] = [];
  private readonly statements = new Map<string, StatementSync>();

  constructor(private readonly sqlite: DatabaseSync) {}

  private statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.sqlite.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Runs `work` as one round trip (and one transaction when it has several statements). */
  private trip<T>(sqls: readonly string[], work: () => T): T {
    const start = performance.now();
    const transaction = sqls.length > 1;
    if (transaction) this.sqlite.exec("BEGIN");
    try {
      const result = work();
      if (transaction) this.sqlite.exec("COMMIT");
      return result;
    } catch (error) {
      if (transaction) this.sqlite.exec("ROLLBACK");
      throw error;
    } finally {
      this.trips.push({
        write: sqls.some((sql) => WRITE.test(sql)),
        ms: performance.now() - start,
      });
    }
  }

  /** Rows changed so far, as D1's `meta.changes` counts a statement's. */
  private changes(): number {
    return (
      this.statement("SELECT total_changes() AS n").get() as { n: number }
    ).n;
  }

  prepare(sql: string) {
    return this.bound(sql, []);
  }

  private bound(sql: string, params: readonly unknown[]) {
    const values = params.map((value) =>
      value === undefined ? null : (value as SQLInputValue),
    );
    const rows = (arrays: boolean) => {
      const statement = this.statement(sql);
      statement.setReturnArrays(arrays);
      return statement.all(...values);
    };
    const result = () => {
      const before = this.changes();
      const results = rows(false) as Row[];
      return {
        success: true,
        results,
        meta: { changes: this.changes() - before },
      };
    };
    return {
      sql,
      result,
      bind: (...next: unknown[]) => this.bound(sql, next),
      all: async () => this.trip([sql], result),
      run: async () => this.trip([sql], result),
      raw: async () => this.trip([sql], () => rows(true)),
      first: async (column?: string) =>
        this.trip([sql], () => {
          const [row] = rows(false) as Row[];
          if (!row) return null;
          return column === undefined ? row : row[column];
        }),
    };
  }

  async batch(statements: ReturnType<D1OnSqlite["prepare"]>[]) {
    return this.trip(
      statements.map((statement) => statement.sql),
      () => statements.map((statement) => statement.result()),
    );
  }
}
