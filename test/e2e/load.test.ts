import { expect, it } from "vitest";
import { loadFreshService } from "../../scripts/lib/load-service";

// `npm run load` in small: 150 creates with repeated references, then
// corrections and deletions, all verified against what the service serves.
it("loses, duplicates and corrupts nothing under concurrent clients, and logs no secret", async () => {
  const report = await loadFreshService({
    creates: 150,
    clients: 8,
    maxMs: 240_000,
  });
  expect(report.statuses["create 201"]).toBeGreaterThan(50);
  expect(report.statuses["create 200"]).toBeGreaterThan(0);
  expect(report.statuses["create 409"]).toBeGreaterThan(0);
  expect(report.statuses["correct 200"]).toBeGreaterThan(0);
  expect(report.statuses["delete 204"]).toBeGreaterThan(0);
  expect(report).toMatchObject({
    lostDocuments: 0,
    duplicateReferences: 0,
    serverErrors: 0,
    wrongPdfs: 0,
    secretsInLog: 0,
  });
  expect(report.listTotal.served).toBe(report.listTotal.expected);
  // Spread over every shard of wrangler.toml (4), the rows all counted.
  expect(report.documentsPerShard).toHaveLength(4);
  expect(Math.min(...report.documentsPerShard)).toBeGreaterThan(0);
  // The log was there to search: one line per request at least.
  expect(report.loggedRequests).toBeGreaterThanOrEqual(report.requests);
}, 300_000);
