import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client";
import { listQueries } from "../../src/db/document-summaries";

/** SQLite's plan of a query, one line per step. */
async function planOf(query: { toSQL(): { sql: string; params: unknown[] } }) {
  const { sql, params } = query.toSQL();
  const { results } = await env.DB_0.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return results.map((step) => step.detail).join("\n");
}

// The list answers as fast with 100 000 documents in the window as with 100
// (`npm run bench:http`) only while SQLite counts the total from the index
// alone and reads the page in index order.
describe("the list queries", () => {
  const db = openDatabase(env.DB_0);

  it.each([
    ["without", {}],
    [
      "with",
      { transportDateFrom: "2026-11-01", transportDateTo: "2026-11-30" },
    ],
  ])(
    "%s transport date filters, count from the index alone",
    async (_, dates) => {
      const [page, total] = listQueries(
        db,
        { credentialId: "cred_1", createdSince: 0, ...dates },
        { offset: 50, limit: 25 },
      );
      expect(await planOf(total)).toMatch(
        /^SEARCH document_summaries USING COVERING INDEX document_summaries_list_idx \(credential_id=\? AND created_at>\?\)$/,
      );
      const pagePlan = await planOf(page);
      expect(pagePlan).toMatch(/USING INDEX document_summaries_list_idx/);
      expect(pagePlan).not.toMatch(/TEMP B-TREE/);
    },
  );
});
