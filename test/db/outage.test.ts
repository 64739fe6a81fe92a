import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { reportingOutages } from "../../src/db/outage";
import { DomainError } from "../../src/errors";
import { D1_OUTAGE, d1Down } from "../helpers/faults";

// Only an outage becomes a 503: D1 refusing the SQL itself keeps its meaning
// (a unique index is a conflict or a lost race; bad SQL is a bug, a 500).

const failureOf = (query: Promise<unknown>) =>
  query.then(
    () => expect.unreachable("the query succeeded"),
    (error: unknown) => error,
  );

describe("D1 as the app sees it", () => {
  it("turns an overloaded D1 into SERVICE_UNAVAILABLE for the database, keeping D1's error", async () => {
    const db = reportingOutages(d1Down().DB_0);
    for (const query of [
      db.prepare("SELECT 1").all(),
      db.prepare("SELECT ?").bind(1).first(),
      db.batch([db.prepare("SELECT 1")]),
    ]) {
      const error = await failureOf(query);
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({
        code: "SERVICE_UNAVAILABLE",
        facts: { dependency: "database" },
        cause: { message: D1_OUTAGE },
      });
    }
  });

  it("passes a unique violation and bad SQL through unchanged", async () => {
    const db = reportingOutages(env.DB_0);
    const insert =
      "INSERT INTO pending_pdf_objects (object_key, created_at) VALUES ('documents/twice.pdf', 0)";
    await db.prepare(insert).run();
    for (const query of [
      db.prepare(insert).run(),
      db.batch([db.prepare(insert)]),
      db.prepare("SELECT * FROM no_such_table").all(),
    ]) {
      const error = await failureOf(query);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(DomainError);
    }
  });
});
