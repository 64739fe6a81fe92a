// `npm run bench:http`: `npm start` on loopback (its own state folder and a
// free port), driven by a small fetch-based client with a bounded load: each
// case stops after its request count or its time limit, whichever comes first.
// Merges its figures into bench/results.json under "http".
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { keys, startService } from "../scripts/lib/commands";
import { executeSql } from "../scripts/lib/d1";
import { shardBindings } from "../scripts/lib/shards";
import { homeShard } from "../src/domain/shard-routing";
import { renderDocumentPdf } from "../src/pdf/render-document";
import { fullRequest, RENDER_FIXTURES } from "./fixtures";
import { mergeResults, runEnvironment } from "./results";
import { cpuPerRequest, serviceProcesses, threadTimes } from "./service-cpu";
import { issueSettledDocument, removeStoredPdf } from "./settled-document";
import { percentile, round } from "./stats";

const SCALE = Number(process.env.BENCH_HTTP_SCALE ?? 1);
const TIME_LIMIT_MS = 20_000;
const RENDER_SECONDS = 5;

interface LoadResult {
  concurrency: number;
  requests: number;
  errors: number;
  firstError?: string;
  statuses: Record<string, number>;
  seconds: number;
  throughputPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** `total` requests (at most TIME_LIMIT_MS) from `concurrency` loops, one request at a time each. */
async function load(
  concurrency: number,
  total: number,
  request: (index: number) => Promise<Response>,
  expected: number,
): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let next = 0;
  let errors = 0;
  let firstError: string | undefined;
  const start = performance.now();
  const deadline = start + TIME_LIMIT_MS;
  const worker = async () => {
    while (next < total && performance.now() < deadline) {
      const index = next++;
      const sent = performance.now();
      try {
        const response = await request(index);
        const body = await response.text();
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        if (response.status !== expected) {
          errors++;
          firstError ??= `${response.status} ${body.slice(0, 300)}`;
        }
      } catch {
        errors++;
        statuses.failed = (statuses.failed ?? 0) + 1;
      }
      latencies.push(performance.now() - sent);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - start) / 1000;
  return {
    concurrency,
    requests: latencies.length,
    errors,
    ...(firstError ? { firstError } : {}),
    statuses,
    seconds: round(seconds, 2),
    throughputPerSecond: round(latencies.length / seconds, 1),
    p50Ms: round(percentile(latencies, 0.5), 1),
    p99Ms: round(percentile(latencies, 0.99), 1),
  };
}

const sqlText = (value: string): string => `'${value.replaceAll("'", "''")}'`;

/**
 * `count` more documents of `credential` in its list, created within the
 * last hour, straight into local D1: the list reads only the summaries in
 * the credential's home shard.
 */
async function seedDocuments(
  persistTo: string,
  credential: { credential_id: string },
  first: number,
  count: number,
): Promise<void> {
  const now = Date.now();
  const shards = shardBindings();
  const home = homeShard(shards, {
    id: credential.credential_id,
    environment: "test",
  });
  await executeSql(
    { remote: false, persistTo },
    home,
    `WITH RECURSIVE n(i) AS (SELECT ${first} UNION ALL SELECT i + 1 FROM n WHERE i < ${first + count - 1})
INSERT INTO document_summaries (uuid, credential_id, reference, created_at, transport_date,
  rectifies_uuid)
SELECT printf('b0000000-0000-4000-8000-%012d', i), ${sqlText(credential.credential_id)}, NULL,
  ${now} - (i % 3600000), '2026-11-21', NULL
FROM n;`,
  );
}

/**
 * Render-only throughput: full one-page documents rendered back to back in
 * this process for RENDER_SECONDS after a warm-up, on one thread as the
 * Worker's isolate renders.
 */
async function renderOnlyThroughput(): Promise<{
  documents: number;
  seconds: number;
  throughputPerSecond: number;
}> {
  const input = RENDER_FIXTURES.full;
  for (let i = 0; i < 30; i++) await renderDocumentPdf(input);
  const start = performance.now();
  let documents = 0;
  while (performance.now() - start < RENDER_SECONDS * 1000) {
    await renderDocumentPdf(input);
    documents++;
  }
  const seconds = (performance.now() - start) / 1000;
  return {
    documents,
    seconds: round(seconds, 2),
    throughputPerSecond: round(documents / seconds, 1),
  };
}

async function main(): Promise<void> {
  // Before the service starts, and again right after the creates: on a
  // shared machine the load of the moment moves both rates alike.
  const renderOnlyBefore = await renderOnlyThroughput();
  console.error("render only", renderOnlyBefore);
  const stateDir = await mkdtemp(join(tmpdir(), "deca-bench-http-"));
  const service = await startService(stateDir);
  const { port } = service;
  console.error(`bench:http: npm start on port ${port}, state in ${stateDir}`);
  const base = `http://127.0.0.1:${port}`;
  try {
    const developer = JSON.parse(
      await readFile(join(stateDir, "dev-credential.json"), "utf8"),
    ) as { key: string; credential_id: string; organization_id: string };
    const { key } = developer;
    const auth = { Authorization: `Bearer ${key}` };
    // The list route's caller, with documents of its own.
    const lister = JSON.parse(
      (await keys(stateDir, "create", "--org", "Bench lister", "--env", "test"))
        .stdout,
    ) as { key: string; credential_id: string; organization_id: string };
    // A key's own limit replaces the default 300 requests a minute: this measures the service, not its limiter.
    // Credentials live in the shards of their keys' hashes.
    for (const shard of shardBindings()) {
      await executeSql(
        { remote: false, persistTo: stateDir },
        shard,
        "UPDATE credentials SET rate_limit_per_minute = 1000000000;",
      );
    }
    const create = (index: number) => {
      const body = {
        ...fullRequest(),
        reference: `BENCH-${process.pid}-${index}`,
      };
      return fetch(`${base}/api/v1/documents`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    };

    const dryRun = () =>
      fetch(`${base}/api/v1/documents/validate`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify(fullRequest()),
      });
    const trivialRoute = () => fetch(`${base}/nonexistent`);

    // Warm-up: the first requests compile the Worker and open the databases.
    let offset = 0;
    const created = await load(4, 20, (i) => create(offset + i), 201);
    offset += 20;
    const firstResponse = await create(offset++);
    const { url: qrUrl } = (await firstResponse.json()) as { url: string };
    await load(4, 20, () => fetch(qrUrl), 200);
    // A link past its document's deletion window: its first requests read
    // R2 and put the PDF in the edge cache. Its R2 object is then removed, so
    // that the measured run can answer 200 only from the cache.
    const settled = await issueSettledDocument(
      stateDir,
      base,
      developer,
      fullRequest(),
    );
    await load(4, 20, () => fetch(settled.url), 200);
    await removeStoredPdf(stateDir, settled.uuid);
    await load(4, 20, trivialRoute, 404);
    await load(4, 20, dryRun, 200);

    const createRuns: LoadResult[] = [];
    for (const [concurrency, total] of [
      [1, 60],
      [8, 200],
      [32, 400],
    ] as const) {
      const result = await load(
        concurrency,
        Math.ceil(total * SCALE),
        (i) => create(offset + i),
        201,
      );
      offset += result.requests;
      createRuns.push(result);
      console.error(`create c=${concurrency}`, result);
    }
    const renderOnlyAfter = await renderOnlyThroughput();
    console.error("render only, after the creates", renderOnlyAfter);
    const mean = (a: number, b: number, digits: number) =>
      round((a + b) / 2, digits);
    const renderOnly = {
      before: renderOnlyBefore,
      after: renderOnlyAfter,
      throughputPerSecond: mean(
        renderOnlyBefore.throughputPerSecond,
        renderOnlyAfter.throughputPerSecond,
        1,
      ),
    };
    // Where a create's time goes: the service's CPU per request of a create,
    // of a dry run of the same body (authentication, rate limit, validation
    // and render, nothing stored) and of the trivial route, each at c=8.
    const processes = serviceProcesses(stateDir);
    const withCpu = async (run: () => Promise<LoadResult>) => {
      const before = threadTimes(processes);
      const result = await run();
      const cpu = cpuPerRequest(
        before,
        threadTimes(processes),
        result.requests,
      );
      return {
        ...result,
        serviceCpuMs: round(cpu.serviceCpuMs, 1),
        busiestThreadCpuMs: round(cpu.busiestThreadCpuMs, 1),
      };
    };
    const createCpu = await withCpu(() =>
      load(8, Math.ceil(200 * SCALE), (i) => create(offset + i), 201),
    );
    offset += createCpu.requests;
    // The same creates again, identical: each answers its document (200)
    // without rendering or storing anything, so the difference is what
    // issuing costs beyond the HTTP layer, authentication and the lookup.
    const retryCpu = await withCpu(() =>
      load(
        8,
        createCpu.requests,
        (i) => create(offset - createCpu.requests + i),
        200,
      ),
    );
    const dryRunCpu = await withCpu(() =>
      load(8, Math.ceil(200 * SCALE), dryRun, 200),
    );
    const trivialCpu = await withCpu(() =>
      load(8, Math.ceil(500 * SCALE), trivialRoute, 404),
    );
    console.error("cpu per request", {
      createCpu,
      retryCpu,
      dryRunCpu,
      trivialCpu,
    });

    // The QR link of a document within its deletion window, scanned again
    // and again (its first access was recorded in the warm-up), and on an
    // edge cache hit, against the trivial route measured before and after
    // them, all at concurrency 16.
    const at16 = (request: () => Promise<Response>, expected: number) =>
      withCpu(() => load(16, Math.ceil(1000 * SCALE), request, expected));
    const trivialBefore = await at16(trivialRoute, 404);
    const qrWithinWindow = await at16(() => fetch(qrUrl), 200);
    console.error("qr within the window c=16", qrWithinWindow);
    const cacheHit = await at16(() => fetch(settled.url), 200);
    console.error("qr edge cache hit c=16", cacheHit);
    // The same hit without the audit event a GET writes to D1 after its
    // answer (locally that write costs this machine's CPU, on Cloudflare
    // the database's): what the cache itself costs.
    const cacheHitHead = await at16(
      () => fetch(settled.url, { method: "HEAD" }),
      200,
    );
    console.error("qr edge cache hit, HEAD, c=16", cacheHitHead);
    const trivialAfter = await at16(trivialRoute, 404);
    console.error("404 c=16", trivialBefore, trivialAfter);
    const trivialThroughput = mean(
      trivialBefore.throughputPerSecond,
      trivialAfter.throughputPerSecond,
      1,
    );
    const toTrivial = (run: LoadResult) =>
      round(run.throughputPerSecond / trivialThroughput, 2);

    // The list route, with 100, 10 000 and 100 000 documents in the caller's window.
    const list = () =>
      fetch(`${base}/api/v1/documents?limit=25`, {
        headers: { Authorization: `Bearer ${lister.key}` },
      });
    const listRuns: (LoadResult & {
      documents: number;
      ratioP50: number;
      ratioThroughput: number;
    })[] = [];
    let seeded = 0;
    for (const documents of [100, 10_000, 100_000]) {
      await seedDocuments(stateDir, lister, seeded, documents - seeded);
      seeded = documents;
      const check = (await (await list()).json()) as {
        meta: { total: number };
      };
      if (check.meta.total !== documents) {
        throw new Error(
          `list total ${check.meta.total}, expected ${documents}`,
        );
      }
      await load(4, 20, list, 200);
      const result = await load(8, Math.ceil(300 * SCALE), list, 200);
      const smallest = listRuns[0] ?? result;
      listRuns.push({
        ...result,
        documents,
        ratioP50: round(result.p50Ms / smallest.p50Ms, 2),
        ratioThroughput: round(
          result.throughputPerSecond / smallest.throughputPerSecond,
          2,
        ),
      });
      console.error(`list ${documents}`, result);
    }

    const http = {
      ...runEnvironment(),
      timeLimitPerCaseMs: TIME_LIMIT_MS,
      warmupCreate: created.requests,
      renderOnly,
      create: createRuns,
      createAt8ToRenderOnlyThroughput: round(
        (createRuns.find((r) => r.concurrency === 8)?.throughputPerSecond ??
          0) / renderOnly.throughputPerSecond,
        2,
      ),
      createCpu: {
        create: createCpu,
        identicalRetry: retryCpu,
        dryRun: dryRunCpu,
        trivial: trivialCpu,
      },
      createMinusRetryServiceCpuMs: round(
        createCpu.serviceCpuMs - retryCpu.serviceCpuMs,
        1,
      ),
      trivialRoute: {
        route: "GET /nonexistent (404)",
        before: trivialBefore,
        after: trivialAfter,
        throughputPerSecond: trivialThroughput,
        busiestThreadCpuMs: mean(
          trivialBefore.busiestThreadCpuMs,
          trivialAfter.busiestThreadCpuMs,
          1,
        ),
      },
      qrWithinWindow,
      qrWithinWindowToTrivialThroughput: toTrivial(qrWithinWindow),
      qrEdgeCacheHit: cacheHit,
      qrEdgeCacheHitToTrivialThroughput: toTrivial(cacheHit),
      qrEdgeCacheHitHead: cacheHitHead,
      qrEdgeCacheHitHeadToTrivialThroughput: toTrivial(cacheHitHead),
      list: listRuns,
    };
    await mergeResults({ http });
    print(http);
  } finally {
    await service.stop();
    await rm(stateDir, { recursive: true, force: true });
  }
}

// biome-ignore lint/suspicious/noExplicitAny: a printed report of the figures above
function print(http: any): void {
  const line = (label: string, r: LoadResult, extra = "") =>
    console.log(
      `${label.padEnd(34)} ${String(r.throughputPerSecond).padStart(7)} req/s  p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms  (${r.requests} requests, ${r.errors} errors)${extra}`,
    );
  console.log(
    `${"render only (one thread)".padEnd(34)} ${String(http.renderOnly.throughputPerSecond).padStart(7)} documents/s`,
  );
  for (const r of http.create) line(`create c=${r.concurrency}`, r);
  console.log(
    `create c=8 is ${http.createAt8ToRenderOnlyThroughput}x the render-only throughput`,
  );
  for (const [name, r] of Object.entries(http.createCpu))
    line(
      `CPU per request, ${name} c=8`,
      r as LoadResult,
      `  service ${(r as { serviceCpuMs: number }).serviceCpuMs} ms, busiest thread ${(r as { busiestThreadCpuMs: number }).busiestThreadCpuMs} ms`,
    );
  line("GET /nonexistent c=16, before", http.trivialRoute.before);
  line(
    "QR within the window c=16",
    http.qrWithinWindow,
    `  ${http.qrWithinWindowToTrivialThroughput}x the trivial route`,
  );
  line(
    "QR edge cache hit c=16",
    http.qrEdgeCacheHit,
    `  ${http.qrEdgeCacheHitToTrivialThroughput}x the trivial route`,
  );
  line(
    "QR edge cache hit, HEAD c=16",
    http.qrEdgeCacheHitHead,
    `  ${http.qrEdgeCacheHitHeadToTrivialThroughput}x the trivial route`,
  );
  line("GET /nonexistent c=16, after", http.trivialRoute.after);
  for (const r of http.list)
    line(
      `list, ${r.documents} in window, c=8`,
      r,
      `  p50 ${r.ratioP50}x, throughput ${r.ratioThroughput}x of 100`,
    );
}

await main();
