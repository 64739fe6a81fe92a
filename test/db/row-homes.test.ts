import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MOVES } from "../../src/db/rebalance";
import { REBALANCED_TABLES, ROW_HOMES } from "../../src/domain/row-homes";

// Every table of the schema says where its rows live (src/domain/row-homes.ts),
// so that a rebalance moves it and its requests find it while it moves: a
// table added without a home fails here.

/** The tables of a migrated shard, beside SQLite's, D1's and wrangler's own. */
async function tablesOfShard(): Promise<string[]> {
  const { results } = await env.DB_0.prepare(
    `SELECT name FROM sqlite_master WHERE type = 'table'
       AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'
     ORDER BY name`,
  ).all<{ name: string }>();
  return results.map((row) => row.name);
}

describe("where every table's rows live", () => {
  it("declares a home for every table of the schema, and only for them", async () => {
    expect(Object.keys(ROW_HOMES).sort()).toEqual(await tablesOfShard());
  });

  it("moves every table with a bucket, after the organizations its credentials join", () => {
    const bucketed = Object.keys(MOVES).sort();
    expect(REBALANCED_TABLES[0]).toBe("organizations");
    expect(REBALANCED_TABLES.slice(1).sort()).toEqual(bucketed);
    expect(
      Object.entries(ROW_HOMES)
        .filter(([, { home }]) => home === "DB_0")
        .map(([table]) => table),
    ).toEqual(["ops_calls", "efti_gate_calls", "efti_gate_refusals"]);
  });
});
