import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// `npm run simulate` with few measured rows and samples: its JSON, and its
// exit code, which says whether every shard stays under 7 GB and 50% busy.
const execFileAsync = promisify(execFile);
const SMALL = [
  "--rows",
  "300",
  "--repetitions",
  "20",
  "--sampled-documents",
  "20000",
  "--sampled-seconds",
  "50",
];

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "deca-simulate-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function simulate(name: string, ...args: string[]) {
  const out = join(dir, `${name}.json`);
  let code = 0;
  try {
    await execFileAsync("npm", [
      "run",
      "simulate",
      "--",
      ...SMALL,
      ...args,
      "--out",
      out,
    ]);
  } catch (error) {
    code = (error as { code: number }).code;
  }
  // biome-ignore lint/suspicious/noExplicitAny: the JSON as written, checked field by field
  const result: any = JSON.parse(await readFile(out, "utf8"));
  return { code, result };
}

describe("npm run simulate", () => {
  it("fails a single database at national volume: more than 7 GB within a year", async () => {
    const { code, result } = await simulate("one-shard", "--shards", "1");
    expect(code).toBe(1);
    expect(result.shards).toHaveLength(1);
    expect(result.shards[0].bytesAtOneYear).toBeGreaterThan(7e9);
    expect(result.checks).toMatchObject({
      bytesWithinLimit: false,
      pass: false,
    });
    expect(result.parameters).toMatchObject({
      shards: 1,
      volume: { documents: 120_000_000, peakIssuesPerSecond: 200 },
    });
    expect(result.assumptions.length).toBeGreaterThan(5);
  });

  it("passes a provider with 5% of the market on 4 shards, and writes every figure", async () => {
    const { code, result } = await simulate(
      "provider",
      "--shards",
      "4",
      "--documents",
      "6000000",
      "--peak",
      "10",
    );
    expect(result.checks).toMatchObject({
      bytesWithinLimit: true,
      peakWithinLimit: true,
      archiverKeepsUp: true,
      pass: true,
    });
    expect(code).toBe(0);
    expect(
      result.shards.map((shard: { shard: number }) => shard.shard),
    ).toEqual([0, 1, 2, 3]);
    // The largest organization authenticates in its key's shard and lists in its home shard.
    const roles = result.shards.flatMap(
      (shard: { roles: string[] }) => shard.roles,
    );
    expect(roles).toContain("largest organization's credential");
    expect(roles).toContain("largest organization's home");
    const { shard0, largestCredential, largestHome } =
      result.peakBusyShareP99ByRole;
    for (const share of [shard0, largestCredential, largestHome]) {
      expect(share).toBeGreaterThan(0);
      expect(share).toBeLessThanOrEqual(0.5);
    }
    // Every shard holds about a quarter: rows spread over all of them.
    const bytes = result.shards.map(
      (shard: { bytesAtOneYear: number }) => shard.bytesAtOneYear,
    );
    const total = bytes.reduce((sum: number, b: number) => sum + b, 0);
    for (const b of bytes) expect(b / total).toBeGreaterThan(0.2);
    for (const kind of ["readme", "typical", "largest"]) {
      const figures = result.documents[kind];
      expect(figures.hot.total).toBeGreaterThan(figures.slim.archived.total);
      expect(figures.slim.archived.document).toBeLessThanOrEqual(1000);
      expect(figures.storedArchiveBytes).toBeGreaterThan(figures.dataBytes);
    }
    expect(result.queryCosts.commitCreate).toMatchObject({
      roundTrips: 1,
      writes: 1,
    });
    expect(result.queryCosts.commitCreate.assumedMs).toBeGreaterThanOrEqual(4);
    expect(result.r2.monthlyCostUsdAtOneYear.total).toBeGreaterThan(0);
    // Each fact's event, relayed and delivered by the queue's consumer.
    const { events } = result;
    expect(events.eventsPerDocument).toBeGreaterThan(1);
    expect(events.eventsPerDocument).toBeLessThan(1.5);
    for (const call of ["relay", "mark", "record"]) {
      expect(events.calls[call]).toMatchObject({ roundTrips: 1, writes: 1 });
    }
    expect(events.bytes.event).toBeGreaterThan(0);
    expect(events.year.queue.messagesAYear).toBeGreaterThan(6_000_000);
    expect(events.year.queue.monthlyCostUsd).toBeGreaterThan(0);
  });

  it("replays each operation with the D1 calls of its row in docs/performance.md's round-trip table", async () => {
    const { result } = await simulate("operations", "--shards", "4");
    const doc = await readFile("docs/performance.md", "utf8");
    const replayed: [string, { d1RoundTrips: number }][] = Object.entries(
      result.operations,
    );
    expect(replayed.map(([operation]) => operation)).toEqual(
      expect.arrayContaining([
        "Create with a reference",
        "Correct",
        "Delete",
        "QR within the deletion window, first scan",
      ]),
    );
    for (const [operation, { d1RoundTrips }] of replayed) {
      const row = doc
        .split("\n")
        .find((line) => line.startsWith(`| ${operation} |`));
      expect(row, operation).toBeDefined();
      expect(d1RoundTrips, operation).toBe(row?.match(/\bD1 /g)?.length);
    }
  });
});
