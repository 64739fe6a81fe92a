// The table of figures of docs/performance.md, made from bench/results.json:
// `npm run bench:table` writes it between its markers, and a test in the
// commands project fails when the file's table is not the one made from the
// results.

import type { FallbackFixtureName } from "./fixtures";

/** What the table reads of bench/results.json. */
interface Timing {
  median: number;
  p99: number;
  cpuMedian?: number;
}
interface Load {
  throughputPerSecond: number;
  p50Ms: number;
}
interface Cpu extends Load {
  serviceCpuMs: number;
  busiestThreadCpuMs: number;
}
interface List extends Load {
  documents: number;
  ratioP50: number;
}
/** An operation's CPU in `npm run bench:cpu`, storage excluded, and with its proxy's. */
interface WorkerCpu {
  median: number;
  p99: number;
  withProxyMedian: number;
}
export interface BenchResults {
  bench: {
    commit: string;
    cpu: string;
    cpus: number;
    render: Record<
      "minimal" | "full" | "long" | "grouped",
      {
        pages: number;
        pdfBytes: number;
        renderMs: Timing;
        naive: { renderMs: Timing };
        speedup: number;
      }
    >;
    /** The documents that need fallback fonts (bench/fixtures.ts). */
    fallback: {
      render: Record<
        FallbackFixtureName,
        { pages: number; pdfBytes: number; renderMs: Timing }
      >;
      cold: Record<
        FallbackFixtureName,
        { firstDocumentMs: Timing; fontReadMs: Timing }
      >;
    };
    seal: { full: Timing };
    issuing: { full: Timing };
    cold: {
      moduleEvaluationMs: Timing;
      moduleEvaluationCpuMs: Timing;
      firstDocumentMs: Timing;
    };
    heap: { pages: number; peakUsedHeapMiB: number; peakTotalHeapMiB: number };
    workerBundle: { rawBytes: number; gzipBytes: number };
  };
  http: {
    commit: string;
    cpu: string;
    cpus: number;
    renderOnly: { throughputPerSecond: number };
    /** At concurrency 1, 8 and 32. */
    create: [Load, Load, Load];
    createAt8ToRenderOnlyThroughput: number;
    /** CPU per request of `npm start` at c=8 (bench/service-cpu.ts). */
    createCpu: Record<"create" | "identicalRetry" | "dryRun" | "trivial", Cpu>;
    /** Every process's CPU per request: a create's, less its identical retry's. */
    createMinusRetryServiceCpuMs: number;
    /** At concurrency 16, its throughput the mean of a run before and after the QR runs. */
    trivialRoute: Load & { busiestThreadCpuMs: number };
    qrWithinWindow: Cpu;
    qrWithinWindowToTrivialThroughput: number;
    qrEdgeCacheHit: Cpu;
    qrEdgeCacheHitToTrivialThroughput: number;
    qrEdgeCacheHitHead: Cpu;
    qrEdgeCacheHitHeadToTrivialThroughput: number;
    /** With 100, 10 000 and 100 000 documents in the caller's window. */
    list: [List, List, List];
  };
  /** `npm run bench:cpu` (bench/worker-cpu.ts). */
  workerCpuStorageExcluded: {
    commit: string;
    operations: Record<WorkerCpuOperation, WorkerCpu>;
  };
}

type WorkerCpuOperation =
  | "notFound"
  | "createMinimal"
  | "createFull"
  | "createLong"
  | "createGrouped40"
  | "createGrouped100"
  | `createFallback:${FallbackFixtureName}`
  | "identicalRetry"
  | "correction"
  | "deletion"
  | "list"
  | "get"
  | "status"
  | "pdfDownload"
  | "qrWithinWindow"
  | "qrSettled"
  | "eventsList"
  | "eftiDatasets"
  | "eftiExport"
  | "gateRead"
  | "demoCreate";

const ms = (value: number): string => value.toFixed(1);
const whole = (value: number): string => value.toFixed(0);
const times = (ratio: number, digits = 1): string =>
  `${ratio.toFixed(digits)}×`;
const kb = (bytes: number): string => (bytes / 1000).toFixed(1);
const withCpu = (timing: Timing): string =>
  timing.cpuMedian === undefined
    ? `${ms(timing.median)} ms`
    : `${ms(timing.median)} ms (${ms(timing.cpuMedian)} CPU)`;
/** 100000 as "100 000". */
const thousands = (count: number): string =>
  String(count).replace(/\B(?=(\d{3})+$)/g, " ");
const met = (ok: boolean): string => (ok ? "yes" : "no");

/** One row: what is measured, its figure, and the target with whether it is met. */
type Row = [figure: string, measured: string, target?: [string, boolean]];

function rows(results: BenchResults): Row[] {
  const { bench, http } = results;
  const { minimal, full, long, grouped } = bench.render;
  const { render: withFallback, cold: coldFallback } = bench.fallback;
  /** One figure of each document that needs fallback fonts, "a / b / c". */
  const eachFallback = (figure: (name: FallbackFixtureName) => string) =>
    (Object.keys(withFallback) as FallbackFixtureName[])
      .map(figure)
      .join(" / ");
  const fallbackNames = eachFallback((name) => name);
  const { create } = http;
  const [, , list100k] = http.list;
  const largestPdf = Math.max(minimal.pdfBytes, full.pdfBytes, long.pdfBytes);
  // 25 KB before the seal, whose signature may add 8 KB (docs/pdf.md "The seal").
  const PDF_BUDGET_BYTES = 30_000;
  return [
    [
      "Render, full one-page",
      `${withCpu(full.renderMs)}, p99 ${ms(full.renderMs.p99)} ms`,
      ["≤ 8 ms", full.renderMs.median <= 8],
    ],
    [
      "Render against the naive baseline, full",
      `${ms(full.renderMs.median)} vs ${ms(full.naive.renderMs.median)} ms: ${times(full.speedup)}`,
      ["≥ 5×", full.speedup >= 5],
    ],
    [
      `Render, minimal / long (${long.pages} pages)`,
      `${ms(minimal.renderMs.median)} / ${ms(long.renderMs.median)} ms; naive ${ms(minimal.naive.renderMs.median)} / ${ms(long.naive.renderMs.median)} ms`,
    ],
    [
      `Render, grouped, 40 shipments (${grouped.pages} pages, ${kb(grouped.pdfBytes)} KB)`,
      `${withCpu(grouped.renderMs)}, p99 ${ms(grouped.renderMs.p99)} ms, against ${ms(full.renderMs.median)} ms one-page; naive ${ms(grouped.naive.renderMs.median)} ms`,
    ],
    [
      `Render with fallback fonts, ${fallbackNames}`,
      `${eachFallback((name) => ms(withFallback[name].renderMs.median))} ms, p99 ${eachFallback((name) => ms(withFallback[name].renderMs.p99))} ms`,
    ],
    [
      `PDF size with fallback fonts, ${fallbackNames}`,
      `${eachFallback((name) => kb(withFallback[name].pdfBytes))} KB`,
    ],
    [
      `First document needing them, fresh process, ${fallbackNames}`,
      `${eachFallback((name) => whole(coldFallback[name].firstDocumentMs.median))} ms (reading the fonts ${eachFallback((name) => whole(coldFallback[name].fontReadMs.median))} ms), against ${whole(bench.cold.firstDocumentMs.median)} ms`,
    ],
    [
      "Seal of the full document (its share of the issuing step)",
      `${ms(bench.seal.full.median)} ms, p99 ${ms(bench.seal.full.p99)} ms`,
      ["≤ 2 ms", bench.seal.full.median <= 2],
    ],
    [
      "Issuing step without I/O, full",
      `${ms(bench.issuing.full.median)} ms, p99 ${ms(bench.issuing.full.p99)} ms`,
      ["≤ 10 ms", bench.issuing.full.median <= 10],
    ],
    [
      "Module evaluation, fresh process",
      `${whole(bench.cold.moduleEvaluationMs.median)} ms (${whole(bench.cold.moduleEvaluationCpuMs.median)} CPU)`,
      ["≤ 100 ms", bench.cold.moduleEvaluationMs.median <= 100],
    ],
    [
      "First document after it",
      `${whole(bench.cold.firstDocumentMs.median)} ms`,
      ["≤ 120 ms", bench.cold.firstDocumentMs.median <= 120],
    ],
    [
      "PDF size: minimal / full / long",
      `${kb(minimal.pdfBytes)} / ${kb(full.pdfBytes)} / ${kb(long.pdfBytes)} KB`,
      [`≤ ${PDF_BUDGET_BYTES / 1000} KB`, largestPdf <= PDF_BUDGET_BYTES],
    ],
    [
      `Peak V8 heap, largest document (${bench.heap.pages} pages)`,
      `${whole(bench.heap.peakUsedHeapMiB)} MiB used, ${whole(bench.heap.peakTotalHeapMiB)} MiB total`,
      ["≤ 64 MiB", bench.heap.peakTotalHeapMiB <= 64],
    ],
    [
      "Worker bundle",
      `${(bench.workerBundle.rawBytes / 1024 / 1024).toFixed(1)} MiB raw, ${whole(bench.workerBundle.gzipBytes / 1024)} KiB gzip`,
      ["≤ 1.5 MiB gzip", bench.workerBundle.gzipBytes <= 1.5 * 1024 * 1024],
    ],
    [
      "Create, c=1 / 8 / 32 (`npm start`)",
      `${create.map((run) => whole(run.throughputPerSecond)).join(" / ")} req/s; p50 ${create.map((run) => whole(run.p50Ms)).join(" / ")} ms`,
    ],
    ...measuredFromOutside(http),
    [
      `List p50, ${http.list.map((run) => thousands(run.documents)).join(" / ")} documents`,
      `${http.list.map((run) => whole(run.p50Ms)).join(" / ")} ms: ${times(list100k.ratioP50)} of the smallest at 100 000`,
      ["≤ 3× at 100 000", list100k.ratioP50 <= 3],
    ],
    ...workerCpuRows(results.workerCpuStorageExcluded.operations),
  ];
}

/** The targets of the Worker's CPU, storage excluded (issue 40), by operation. */
const WORKER_CPU_TARGETS: Partial<
  Record<WorkerCpuOperation, { median: number; p99?: number }>
> = {
  createFull: { median: 5, p99: 10 },
  createGrouped100: { median: 25 },
  identicalRetry: { median: 1 },
  correction: { median: 6 },
  list: { median: 1 },
  get: { median: 1 },
  status: { median: 1 },
  pdfDownload: { median: 1 },
  qrWithinWindow: { median: 1 },
  qrSettled: { median: 1 },
  eventsList: { median: 1 },
  eftiDatasets: { median: 1 },
  eftiExport: { median: 1 },
  gateRead: { median: 1 },
};

const WORKER_CPU_NAMES: Record<WorkerCpuOperation, string> = {
  notFound: "`GET /nonexistent` (the floor: routing, HTTP, the log line)",
  createMinimal: "create, minimal",
  createFull: "create, full one-page",
  createLong: "create, long (3 pages)",
  createGrouped40: "create, grouped, 40 shipments",
  createGrouped100: "create, grouped, 100 shipments",
  "createFallback:cjk": "create with fallback fonts, cjk",
  "createFallback:arabic": "create with fallback fonts, arabic",
  "createFallback:world": "create with fallback fonts, world",
  identicalRetry: "identical retry",
  correction: "correction",
  deletion: "deletion",
  list: "list",
  get: "get",
  status: "status",
  pdfDownload: "PDF download",
  qrWithinWindow: "QR scan within the deletion window",
  qrSettled: "QR scan, settled (edge cache hit)",
  eventsList: "events list",
  eftiDatasets: "eFTI datasets of a document",
  eftiExport: "eFTI export of a dataset",
  gateRead: "gate read (`/efti/v0`)",
  demoCreate: "demo create",
};

/** `npm run bench:cpu`: an operation a row, its target beside it. */
function workerCpuRows(
  operations: Record<WorkerCpuOperation, WorkerCpu>,
): Row[] {
  return (Object.keys(WORKER_CPU_NAMES) as WorkerCpuOperation[]).map(
    (operation) => {
      const cpu = operations[operation];
      const target = WORKER_CPU_TARGETS[operation];
      return [
        `Worker CPU, storage excluded: ${WORKER_CPU_NAMES[operation]}`,
        `${ms(cpu.median)} ms, p99 ${ms(cpu.p99)} ms (${ms(cpu.withProxyMedian)} ms with the bindings' proxy)`,
        target && [
          `≤ ${target.median} ms${target.p99 === undefined ? "" : `, p99 ≤ ${target.p99} ms`}`,
          cpu.median <= target.median &&
            (target.p99 === undefined || cpu.p99 <= target.p99),
        ],
      ];
    },
  );
}

/**
 * The figures of `npm run bench:http` that have targets (README's table):
 * throughput ratios taken from outside, in one run, and where a create's
 * time goes.
 */
function measuredFromOutside(http: BenchResults["http"]): Row[] {
  const { create, identicalRetry, dryRun, trivial } = http.createCpu;
  const [, create8] = http.create;
  const storage = create.busiestThreadCpuMs - dryRun.busiestThreadCpuMs;
  const trivialRoute = whole(http.trivialRoute.throughputPerSecond);
  /** Its CPU per request on workerd's busiest thread, against the trivial route's. */
  const threadCpu = (run: Cpu) =>
    `workerd's busiest thread ${ms(run.busiestThreadCpuMs)} vs ${ms(http.trivialRoute.busiestThreadCpuMs)} ms a request`;
  return [
    [
      "Create at c=8 against render-only",
      `${whole(create8.throughputPerSecond)} vs ${whole(http.renderOnly.throughputPerSecond)} documents/s: ${times(http.createAt8ToRenderOnlyThroughput, 2)}`,
      ["≥ 0.4×", http.createAt8ToRenderOnlyThroughput >= 0.4],
    ],
    [
      "CPU of workerd's busiest thread per request, c=8: create / dry run / `GET /nonexistent`",
      `${ms(create.busiestThreadCpuMs)} / ${ms(dryRun.busiestThreadCpuMs)} / ${ms(trivial.busiestThreadCpuMs)} ms (every process: ${ms(create.serviceCpuMs)} / ${ms(dryRun.serviceCpuMs)} / ${ms(trivial.serviceCpuMs)} ms); storing, emulated: ${ms(storage)} ms, ${whole((100 * storage) / create.busiestThreadCpuMs)}% of a create`,
    ],
    [
      "CPU of every process per request, c=8: create less its identical retry",
      `${ms(create.serviceCpuMs)} − ${ms(identicalRetry.serviceCpuMs)} = ${ms(http.createMinusRetryServiceCpuMs)} ms`,
      ["≤ 10 ms", http.createMinusRetryServiceCpuMs <= 10],
    ],
    [
      "QR within the deletion window, scanned again, vs `GET /nonexistent`, c=16",
      `${whole(http.qrWithinWindow.throughputPerSecond)} vs ${trivialRoute} req/s: ${times(http.qrWithinWindowToTrivialThroughput, 2)} (${threadCpu(http.qrWithinWindow)})`,
      ["≥ 0.6×", http.qrWithinWindowToTrivialThroughput >= 0.6],
    ],
    [
      "QR on an edge cache hit vs `GET /nonexistent`, c=16 (a `HEAD` records no access)",
      `${whole(http.qrEdgeCacheHit.throughputPerSecond)} vs ${trivialRoute} req/s: ${times(http.qrEdgeCacheHitToTrivialThroughput, 2)}, \`HEAD\` ${times(http.qrEdgeCacheHitHeadToTrivialThroughput, 2)} (${threadCpu(http.qrEdgeCacheHit)})`,
      ["≥ 0.8×", http.qrEdgeCacheHitToTrivialThroughput >= 0.8],
    ],
  ];
}

/** Rows as a Markdown table. */
const markdown = (table: Row[]): string[] => [
  "| Figure (median) | Measured | Target | Met |",
  "| --- | --- | --- | --- |",
  ...table.map(
    ([figure, measured, target]) =>
      `| ${figure} | ${measured} | ${target?.[0] ?? ""} | ${target ? met(target[1]) : ""} |`,
  ),
];

/** README's table: the figures measured from outside, with the run they come from. */
export function readmeTable({ http }: BenchResults): string {
  return [
    `Last \`npm run bench:http\`: commit ${http.commit.slice(0, 7)}, ${http.cpus} × ${http.cpu}; other processes' load moves throughputs, ratios less:`,
    "",
    ...markdown(measuredFromOutside(http)),
  ].join("\n");
}

/** The table as Markdown, with the run it comes from. */
export function benchTable(results: BenchResults): string {
  const runs = [
    ["bench", results.bench.commit],
    ["bench:http", results.http.commit],
    ["bench:cpu", results.workerCpuStorageExcluded.commit],
  ].map(([name, commit]) => `${commit?.slice(0, 7)} (${name})`);
  const { bench } = results;
  return [
    `Medians of the last runs in \`bench/results.json\` (commits ${runs.join(", ")}, ${bench.cpus} × ${bench.cpu}):`,
    "",
    ...markdown(rows(results)),
  ].join("\n");
}
