import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { GATE_CALLS_KEPT_DAYS } from "../../src/domain/operations/gate-calls";
import { runCron } from "../helpers/cron";

// The eFTI gates' audit trail (docs/efti.md "Gates") in the cron: kept
// GATE_CALLS_KEPT_DAYS days, then removed within the task's share.

const NOW = Date.UTC(2026, 10, 21, 12);
const KEPT_MS = GATE_CALLS_KEPT_DAYS * 24 * 60 * 60 * 1000;

/** `count` requests of a gate, started at `startedAt`, request ids `prefix-1` … */
async function recordCalls(prefix: string, startedAt: number, count: number) {
  await env.DB_0.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
     INSERT INTO efti_gate_calls (request_id, dataset_id, subsets, gate, client_ip, status, started_at, finished_at)
     SELECT ? || '-' || i, '019da3b1-5c00-8abc-8018-e18f40b35bfa', 'ES01', 'es-gate.2027-07', '198.51.100.4', 200, ?, ? FROM n`,
  )
    .bind(prefix, startedAt, startedAt)
    .run();
}

const callsOf = async (prefix: string) =>
  (
    await env.DB_0.prepare(
      "SELECT count(*) AS n FROM efti_gate_calls WHERE request_id LIKE ? || '-%'",
    )
      .bind(prefix)
      .first<{ n: number }>()
  )?.n;

describe("the eFTI gates' audit trail in the cron", () => {
  it(`keeps a request ${GATE_CALLS_KEPT_DAYS} days, then removes it`, async () => {
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
