import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { OPS_CALLS_KEPT_DAYS } from "../../src/domain/operations/ops-calls";
import { opsClient } from "../helpers/ops";

// POST /ops/v1/scheduled-work: the cron's work, run on demand (after an
// outage, and by npm start, where wrangler runs no cron).

const KEPT_MS = OPS_CALLS_KEPT_DAYS * 24 * 60 * 60 * 1000;

/** An operations API call recorded `ago` milliseconds ago, as `id`. */
async function recordCall(id: string, ago: number) {
  const at = Date.now() - ago;
  await env.DB_0.prepare(
    "INSERT INTO ops_calls (request_id, operation, client_ip, key_version, status, started_at, finished_at) VALUES (?, 'GET /ops/v1/keys', '198.51.100.4', 'v1', 200, ?, ?)",
  )
    .bind(id, at, at)
    .run();
}

const recorded = async (id: string) =>
  (await env.DB_0.prepare("SELECT 1 FROM ops_calls WHERE request_id = ?")
    .bind(id)
    .first()) !== null;

describe("POST /ops/v1/scheduled-work", () => {
  it("runs the cron's work at once and answers what each task did", async () => {
    const ops = opsClient();
    await recordCall("expired-call", KEPT_MS + 60_000);
    await recordCall("kept-call", KEPT_MS - 60_000);

    const response = await ops("/ops/v1/scheduled-work", { method: "POST" });

    expect(response.status).toBe(200);
    const report = (await response.json()) as Record<string, unknown>;
    expect(report).toMatchObject({
      opsCalls: expect.anything(),
      archive: expect.anything(),
      out_of_budget: [],
    });
    expect(await recorded("expired-call")).toBe(false);
    expect(await recorded("kept-call")).toBe(true);
  });

  it("runs nothing without the support secret", async () => {
    const ops = opsClient();
    await recordCall("expired-unauthorized", KEPT_MS + 60_000);

    const response = await ops("/ops/v1/scheduled-work", {
      method: "POST",
      secret: null,
    });

    expect(response.status).toBe(401);
    expect(await recorded("expired-unauthorized")).toBe(true);
  });
});
