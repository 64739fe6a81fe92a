import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { OPS_CALLS_KEPT_DAYS } from "../../src/domain/operations/ops-calls";
import { runCron } from "../helpers/cron";

const NOW = Date.UTC(2026, 10, 21, 12);
const KEPT_MS = OPS_CALLS_KEPT_DAYS * 24 * 60 * 60 * 1000;

/** `count` calls of the operations API, started at `startedAt`, ids `prefix-1` … */
async function recordCalls(prefix: string, startedAt: number, count: number) {
  await env.DB_0.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
     INSERT INTO ops_calls (request_id, operation, client_ip, key_version, status, started_at, finished_at)
     SELECT ? || '-' || i, 'GET /ops/v1/keys', '198.51.100.4', 'v1', 200, ?, ? FROM n`,
  )
    .bind(prefix, startedAt, startedAt)
    .run();
}

const callsOf = async (prefix: string) =>
  (
    await env.DB_0.prepare(
      "SELECT count(*) AS n FROM ops_calls WHERE request_id LIKE ? || '-%'",
    )
      .bind(prefix)
      .first<{ n: number }>()
  )?.n;

describe("the operations API's audit trail in the cron", () => {
  it(`keeps a call ${OPS_CALLS_KEPT_DAYS} days, then removes it`, async () => {
    await recordCalls("expired", NOW - KEPT_MS - 1, 3);
    await recordCalls("kept", NOW - KEPT_MS, 2);
    await runCron(NOW);
    expect(await callsOf("expired")).toBe(0);
    expect(await callsOf("kept")).toBe(2);
  });

  it("removes a backlog over several runs, within its share", async () => {
    await recordCalls("backlog", NOW - 2 * KEPT_MS, 6000);
    await runCron(NOW);
    const left = await callsOf("backlog");
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(6000);
    for (let run = 0; run < 3 && (await callsOf("backlog")); run++) {
      await runCron(NOW);
    }
    expect(await callsOf("backlog")).toBe(0);
  });
});
