import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client";
import { type EventListFilter, pageOfEvents } from "../../src/db/event-log";
import { recordingStatements } from "../helpers/query-plans";

// A page of events reads, in the order it lists them, only the index
// entries of the events it may list: a list of one type or of one document
// never walks the key's other events, however many it has.

const FILTER: EventListFilter = { credentialId: "cred_plan", createdSince: 0 };

/** SQLite's plan of each page query `pageOfEvents` sends (its last statement). */
async function pagePlan(
  filter: EventListFilter,
  after: Parameters<typeof pageOfEvents>[2],
): Promise<string> {
  const sent: string[] = [];
  const db = openDatabase(
    recordingStatements(env.DB_0, (sql) => sent.push(sql)),
  );
  await pageOfEvents(db, filter, after, 11);
  const sql = sent.at(-1) ?? "";
  const parameters = sql.split("?").length - 1;
  const { results } = await env.DB_0.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...Array.from({ length: parameters }, () => "x"))
    .all<{ detail: string }>();
  const plan = results.map((step) => step.detail);
  // Sorting would read every match first.
  expect(plan.join("\n")).not.toContain("TEMP B-TREE");
  return plan[0] ?? "";
}

const CURSORS = [
  undefined,
  "evt_000000000000000000000001",
  { createdAt: 1, id: "evt_000000000000000000000001" },
];

describe("a page of events", () => {
  it("seeks the list's index for all events, that of the type or of the document when filtered", async () => {
    for (const after of CURSORS) {
      expect(await pagePlan(FILTER, after)).toMatch(
        /^SEARCH events USING INDEX events_list_idx \(credential_id=\?/,
      );
      expect(await pagePlan({ ...FILTER, type: "ping" }, after)).toMatch(
        /^SEARCH events USING INDEX events_type_idx \(credential_id=\? AND type=\?/,
      );
      for (const filter of [
        { ...FILTER, documentUuid: "x" },
        { ...FILTER, documentUuid: "x", type: "ping" as const },
      ]) {
        expect(await pagePlan(filter, after)).toMatch(
          /^SEARCH events USING INDEX events_document_idx \(credential_id=\? AND document_uuid=\?/,
        );
      }
    }
  });

  it("starts after the cursor in the index, not at the newest event", async () => {
    for (const after of CURSORS.slice(1)) {
      for (const filter of [
        FILTER,
        { ...FILTER, type: "ping" as const },
        { ...FILTER, documentUuid: "x" },
      ]) {
        expect(await pagePlan(filter, after)).toMatch(
          /created_at<\?|\(created_at,id\)<\(\?,\?\)/,
        );
      }
    }
  });
});
