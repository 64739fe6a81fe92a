import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/commands";
import { runLoad } from "../../scripts/lib/load";
import {
  loadLocalService,
  type ServiceLoadReport,
} from "../../scripts/lib/load-service";
import { sqliteFiles } from "../../scripts/lib/sqlite-files";
import { REBALANCED_TABLES, ROW_HOMES } from "../../src/domain/row-homes";
import { shardOfBucket } from "../../src/domain/shard-routing";
import { checkChanges, planChanges, runChanges } from "./rebalance-traffic";
import {
  awaitDeliveries,
  callEndpointsUntil,
  closeReceivers,
  movingKey,
  revokeAndScan,
  type Subscriber,
  toRevoke,
  watch,
} from "./rebalance-webhooks";

// `npm start` on 4 shards takes a load (`npm run load` in small: creates with
// repeated references, corrections and deletions, all verified against what
// the service serves); then the Worker runs with 8 bindings (a wrangler config
// made for the test, DB_4 … DB_7 added, SHARDS_BEFORE = 4) and
// `npm run shards -- rebalance --from 4` runs while `npm run load` goes on
// beside it, and the first run's key corrects, deletes and opens its
// documents as they move (rebalance-traffic.ts), and keys whose homes move
// receive their events on webhook endpoints while one of them calls the
// endpoints API (rebalance-webhooks.ts). Nothing is lost, doubled or served
// wrong, before or after, every event reaches each endpoint that wants it,
// and every row of every shard is in its routed one. One load run serves both tests: starting the service is most of
// their time.

const execFileAsync = promisify(execFile);
const SHARDS = 8;
// Documents of the first run each change takes while they move.
const CHANGES = 6;
const CONFIG = `wrangler.rebalance-e2e-${process.pid}.toml`;

let stateDir = "";
let worker: ChildProcess | undefined;
let firstKey = "";
let before: ServiceLoadReport;

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "deca-rebalance-"));
  ({ key: firstKey, report: before } = await loadLocalService(stateDir, {
    creates: 150,
    clients: 8,
    maxMs: 240_000,
  }));
}, 300_000);

afterAll(async () => {
  await closeReceivers();
  if (worker?.pid && worker.exitCode === null) {
    const exited = new Promise((resolve) => worker?.once("exit", resolve));
    process.kill(-worker.pid, "SIGTERM");
    await exited;
  }
  await rm(CONFIG, { force: true });
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

/** wrangler.toml with DB_4 … DB_7 bound at the top level, beside the path it is read from. */
async function writeEightShardConfig(): Promise<void> {
  const added = [4, 5, 6, 7].map(
    (shard) => `
[[d1_databases]]
binding = "DB_${shard}"
database_name = "deca-${shard}"
database_id = "00000000-0000-0000-0000-00000000000${shard}"
migrations_dir = "migrations"
`,
  );
  await writeFile(
    CONFIG,
    `${await readFile("wrangler.toml", "utf8")}\n${added.join("")}`,
  );
}

const wrangler = (...args: string[]) =>
  execFileAsync("npx", ["wrangler", ...args], {
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  });

/** `wrangler dev` on the eight-shard config, SHARDS_BEFORE = 4; resolves once ready. */
async function startEightShards(port: number): Promise<ChildProcess> {
  const child = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      "--config",
      CONFIG,
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      stateDir,
      "--show-interactive-dev-session=false",
      "--var",
      "SHARDS_BEFORE:4",
      "--var",
      "BASE_URL:",
    ],
    {
      detached: true,
      env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    },
  );
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const deadline = Date.now() + 120_000;
  while (!/Ready on http/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`wrangler dev did not become ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return child;
}

/** The rows of one D1 file by table (those with a bucket) and the shard among eight each routes to. */
function routedRowsOf(file: string) {
  const database = new DatabaseSync(file, { readOnly: true });
  const counts: { table: string; shard: number; rows: number }[] = [];
  try {
    for (const table of REBALANCED_TABLES) {
      const home = ROW_HOMES[table];
      if (!("bucket" in home)) continue;
      for (const row of database.prepare(`SELECT * FROM ${table}`).all()) {
        const shard = shardOfBucket(home.bucket({ ...row, _rowid: 0 }), SHARDS);
        const count = counts.find(
          (entry) => entry.table === table && entry.shard === shard,
        );
        if (count) count.rows += 1;
        else counts.push({ table, shard, rows: 1 });
      }
    }
  } finally {
    database.close();
  }
  return counts;
}

/**
 * Every document of a key's list (all its pages): its total, and those whose
 * QR link serves other bytes than `pdf.sha256`; the links of `unopened` are
 * left unopened (a first scan blocks a deletion).
 */
async function wronglyServed(
  origin: string,
  key: string,
  unopened: ReadonlySet<string> = new Set(),
) {
  const headers = { Authorization: `Bearer ${key}` };
  const wrong: string[] = [];
  let total = 0;
  for (let page = 1; ; page++) {
    const list = (await (
      await fetch(`${origin}/api/v1/documents?limit=100&page=${page}`, {
        headers,
      })
    ).json()) as { meta: { total: number }; data: { uuid: string }[] };
    total = list.meta.total;
    if (list.data.length === 0) break;
    // A page's documents side by side: a list page holds up to 100.
    await Promise.all(
      list.data.map(async ({ uuid }) => {
        if (unopened.has(uuid)) return;
        const document = (await (
          await fetch(`${origin}/api/v1/documents/${uuid}`, { headers })
        ).json()) as { url: string; pdf: { sha256: string } };
        const pdf = await fetch(
          document.url.replace(/^https?:\/\/[^/]+/, origin),
        );
        const bytes = new Uint8Array(await pdf.arrayBuffer());
        const digest = Buffer.from(
          await crypto.subtle.digest("SHA-256", bytes),
        ).toString("hex");
        if (pdf.status !== 200 || digest !== document.pdf.sha256) {
          wrong.push(uuid);
        }
      }),
    );
  }
  return { total, wrong };
}

const clean = {
  lostDocuments: 0,
  duplicateReferences: 0,
  serverErrors: 0,
  wrongPdfs: 0,
};

it("npm start loses, duplicates and corrupts nothing under concurrent clients, and logs no secret", () => {
  expect(before.statuses["create 201"]).toBeGreaterThan(50);
  expect(before.statuses["create 200"]).toBeGreaterThan(0);
  expect(before.statuses["create 409"]).toBeGreaterThan(0);
  expect(before.statuses["correct 200"]).toBeGreaterThan(0);
  expect(before.statuses["delete 204"]).toBeGreaterThan(0);
  expect(before).toMatchObject({ ...clean, secretsInLog: 0 });
  expect(before.listTotal.served).toBe(before.listTotal.expected);
  // Spread over every shard of wrangler.toml (4), the rows all counted.
  expect(before.documentsPerShard).toHaveLength(4);
  expect(Math.min(...before.documentsPerShard)).toBeGreaterThan(0);
  // The log was there to search: one line per request at least.
  expect(before.loggedRequests).toBeGreaterThanOrEqual(before.requests);
});

it("goes from 4 to 8 shards under load: nothing lost, doubled or served wrong, every row in its routed shard", async () => {
  await writeEightShardConfig();
  // Each shard is its own D1 file: the four are migrated side by side.
  await Promise.all(
    [4, 5, 6, 7].map((shard) =>
      wrangler(
        ...["d1", "migrations", "apply", `DB_${shard}`, "--local"],
        ...["--persist-to", stateDir, "--config", CONFIG],
      ),
    ),
  );
  const eightPort = await freePort();
  worker = await startEightShards(eightPort);
  const origin = `http://127.0.0.1:${eightPort}`;

  // The documents issued on four shards are found before anything moved;
  // those whose deletion races their first QR scan during the move stay
  // unopened.
  const plan = await planChanges(origin, firstKey, CHANGES);
  expect(plan.held).toHaveLength(CHANGES);
  expect(plan.corrected).toHaveLength(CHANGES);
  expect(plan.raced).toHaveLength(CHANGES);
  const raced = new Set(plan.raced.map((document) => document.uuid));
  expect(await wronglyServed(origin, firstKey, raced)).toMatchObject({
    total: before.listTotal.expected,
    wrong: [],
  });

  // Keys with webhook endpoints on loopback receivers: the first run's, one
  // whose load runs beside the rebalance and one that calls the endpoints
  // API throughout it, the last two with homes that move.
  const second = await movingKey(origin, "During");
  const calling = await movingKey(origin, "Webhooks");
  const called = await watch(origin, calling.key);
  const subscribers: Subscriber[] = [
    { key: firstKey, endpoints: [await watch(origin, firstKey)] },
    {
      key: second.key,
      endpoints: [
        await watch(origin, second.key),
        await watch(origin, second.key, [
          "document.rectified",
          "document.deleted",
        ]),
      ],
    },
    { key: calling.key, endpoints: [called] },
  ];
  // A key whose documents' issues reached its endpoint, revoked as the move
  // starts: the first scans of its documents after that are events no
  // endpoint receives.
  const revoked = await toRevoke(origin, 4);
  // The rebalance and a second load run side by side, while the first key
  // corrects, deletes and opens documents of the first run as they move,
  // another key issues documents and changes its endpoint, and the revoked
  // key's documents are scanned.
  const {
    answers,
    during: [during, moved, calls, revocation],
  } = await runChanges(origin, firstKey, plan, () => {
    const rebalance = execFileAsync("npm", [
      ...["run", "shards", "--", "rebalance"],
      ...["--from", "4", "--url", origin],
    ]);
    return Promise.all([
      runLoad({
        baseUrl: origin,
        key: second.key,
        creates: 80,
        clients: 6,
        maxMs: 90_000,
      }),
      rebalance,
      callEndpointsUntil(origin, calling.key, called, rebalance),
      revokeAndScan(origin, revoked),
    ]);
  });
  expect(calls.problems, `${calls.rounds} rounds of calls`).toEqual([]);
  expect(during).toMatchObject(clean);
  expect(during.listTotal.served).toBe(during.listTotal.expected);
  const { moved: rows } = JSON.parse(
    moved.stdout.trim().split("\n").at(-1) ?? "",
  ) as {
    moved: Record<string, number>;
  };
  expect(rows.documents).toBeGreaterThan(0);

  // After the move, every change answered as the service now serves it:
  // a held reference printed by its holder only, each correction served,
  // each document either deleted or opened, never both.
  const changed = await checkChanges(origin, firstKey, answers);
  expect(changed.problems).toEqual([]);
  // And everything of both runs is served as issued.
  expect(await wronglyServed(origin, firstKey)).toMatchObject({
    total: before.listTotal.expected + changed.listed,
    wrong: [],
  });
  expect(await wronglyServed(origin, second.key)).toMatchObject({
    total: during.listTotal.expected,
    wrong: [],
  });

  // Every event of every key, from before the move to the QR links just
  // opened, reached each endpoint that wants it, signed with its secrets;
  // a delivery may come twice (at least once), under the same webhook-id.
  const delivered = await awaitDeliveries(origin, subscribers, 60_000);
  expect(
    delivered,
    `${delivered.duplicates} duplicates among ${delivered.expected} deliveries`,
  ).toMatchObject({
    missing: [],
    unverified: 0,
    unexpected: [],
    notDelivered: [],
  });
  // At least the issue of each document the second run created.
  expect(delivered.expected).toBeGreaterThanOrEqual(
    during.statuses["create 201"] ?? Number.POSITIVE_INFINITY,
  );

  // Each D1 file holds the rows of one shard among eight (the one most of
  // its rows route to), and the eight differ; a row of another shard is
  // named by its table.
  const files = (await sqliteFiles(stateDir))
    .filter((file) => file.includes("D1DatabaseObject"))
    .filter((file) => !file.endsWith("metadata.sqlite"))
    .map(routedRowsOf)
    .map((counts) => {
      const rows = (shard: number) =>
        counts
          .filter((count) => count.shard === shard)
          .reduce((sum, count) => sum + count.rows, 0);
      const [shard] = counts
        .map((count) => count.shard)
        .sort((a, b) => rows(b) - rows(a));
      return { shard, counts };
    });
  expect(new Set(files.map(({ shard }) => shard)).size).toBe(SHARDS);
  expect(
    files.flatMap(({ shard, counts }) =>
      counts
        .filter((count) => count.shard !== shard)
        .map(
          (count) =>
            `${count.rows} ${count.table} of shard ${count.shard} in shard ${shard}`,
        ),
    ),
  ).toEqual([]);

  // The revoked key's endpoint received its documents' issues, and nothing
  // that happened after the revocation: not one of the scans, all served.
  // A delivery may come twice, under the same webhook-id.
  expect(revocation.scans).toEqual([200, 200, 200, 200]);
  const received = new Map(
    revoked.endpoint.receiver.deliveries.map((delivery) => [
      delivery.id,
      delivery.event?.type,
    ]),
  );
  expect([...received.values()]).toEqual(Array(4).fill("document.issued"));
}, 420_000);
