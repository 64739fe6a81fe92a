import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { minimalRequest } from "../../fixtures/requests";
import { datasetId } from "../../src/domain/efti/dataset-id";
import { walkGateCallChain } from "../../src/domain/operations/gate-call-chain";
import type { GateCallChainPage } from "../../src/schemas/ops";
import { createCredential } from "../helpers/credentials";
import { runCron } from "../helpers/cron";
import { documentsApi, freshNetwork } from "../helpers/documents-api";
import { gateApi } from "../helpers/gate";
import { opsClient } from "../helpers/ops";
import { callWithClock, fixedClock } from "../helpers/worker";

// The eFTI gates' audit trail (docs/efti.md "Gates" → "Audit trail") as an
// assessor checks it: append-only and chained (each row names the hash of
// the one before), verified by walking the chain through the operations
// API, never pruned, and each day's rows exported by the cron to R2 once.

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 21, 12);

/** A live document read twice and followed up by a gate at `at`, one refused read: its dataset id. */
async function gateTraffic(at: number): Promise<string> {
  const request = callWithClock(fixedClock(at));
  const owner = await createCredential({ environment: "live" });
  const document = await documentsApi(request, owner.key).issue(
    minimalRequest(),
  );
  const id = await datasetId(document.uuid, 1);
  const ip = freshNetwork();
  const gate = gateApi(request, ip);
  expect((await gate.get(id)).status).toBe(200);
  expect((await gate.get(id, "?subsetId=full")).status).toBe(200);
  expect((await gate.followUp(id, "Sin incidencias")).status).toBe(200);
  expect((await gateApi(request, ip, "guess").get(id)).status).toBe(401);
  return id;
}

/** A page of the chain through the operations API, as `npm run keys -- verify-audit` reads it. */
async function chainPage(after?: number): Promise<GateCallChainPage> {
  const response = await opsClient()(
    `/ops/v1/efti/gate-calls/chain${after === undefined ? "" : `?starting_after=${after}`}`,
  );
  expect(response.status).toBe(200);
  return response.json();
}

const rowCount = async () =>
  (
    await env.DB_0.prepare("SELECT count(*) AS n FROM efti_gate_calls").first<{
      n: number;
    }>()
  )?.n;

describe("the eFTI gates' audit trail, chained", () => {
  it("is one chain however many requests run at once, and verifies", async () => {
    await gateTraffic(NOW);
    const request = callWithClock(fixedClock(NOW));
    const owner = await createCredential({ environment: "live" });
    const document = await documentsApi(request, owner.key).issue(
      minimalRequest(),
    );
    const id = await datasetId(document.uuid, 1);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => gateApi(request, freshNetwork()).get(id)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    const walked = await walkGateCallChain(chainPage);
    expect(walked).toEqual({ checked: await rowCount(), broken: null });
    // Arrival and answer of each read and follow-up, one row a refusal.
    expect(walked.checked).toBeGreaterThanOrEqual(7 + 16);
  });

  it("names the first row altered, removed or unchained in D1", async () => {
    await gateTraffic(NOW);
    const { data } = await chainPage();
    const [, second, third, fourth] = data;
    if (!second || !third || !fourth) throw new Error("too few rows");
    await env.DB_0.prepare(
      "UPDATE efti_gate_calls SET subsets = 'ES01,ES02' WHERE id = ?",
    )
      .bind(fourth.id)
      .run();
    expect((await walkGateCallChain(chainPage)).broken).toEqual({
      id: fourth.id,
      reason: "hash",
    });
    await env.DB_0.prepare("DELETE FROM efti_gate_calls WHERE id = ?")
      .bind(second.id)
      .run();
    expect((await walkGateCallChain(chainPage)).broken).toEqual({
      id: third.id,
      reason: "previous_hash",
    });
  });
});

describe("the eFTI gates' audit trail in the cron", () => {
  it("never removes a row, however old", async () => {
    await gateTraffic(NOW - 3 * 365 * DAY);
    const before = await rowCount();
    await runCron(NOW);
    expect(await rowCount()).toBe(before);
  });

  it("exports each day's rows with their hashes to R2 once: a later run leaves the object as it is", async () => {
    const day = Date.UTC(2026, 11, 2);
    await gateTraffic(day + 9 * 60 * 60 * 1000);
    await gateTraffic(day + 23 * 60 * 60 * 1000);
    await gateTraffic(day + DAY + 60_000);
    const key = "efti-audit/2026-12-02.jsonl";
    await runCron(day + 23 * 60 * 60 * 1000 + 60_000);
    expect(await env.PDFS.head(key)).toBeNull();
    await runCron(day + DAY + 10 * 60_000);
    const object = await env.PDFS.get(key);
    if (!object) throw new Error(`no ${key}`);
    const lines = (await object.text()).trimEnd().split("\n");
    const records = lines.map((line) => JSON.parse(line));
    const all: GateCallChainPage["data"] = [];
    for (let after: number | undefined, more = true; more; ) {
      const page = await chainPage(after);
      all.push(...page.data);
      more = page.has_more;
      after = page.data.at(-1)?.id;
    }
    const ofTheDay = all.filter((row) =>
      row.started_at.startsWith("2026-12-02"),
    );
    expect(records).toEqual(ofTheDay);
    expect(records).toHaveLength(2 * 7);
    // The export is itself a chain: each row names the one before.
    for (const [i, record] of records.entries()) {
      if (i > 0) expect(record.previous_hash).toBe(records[i - 1].hash);
    }
    const etag = object.etag;
    await gateTraffic(day + 23 * 60 * 60 * 1000 + 30 * 60_000);
    await runCron(day + DAY + 20 * 60_000);
    expect((await env.PDFS.head(key))?.etag).toBe(etag);
  });
});
