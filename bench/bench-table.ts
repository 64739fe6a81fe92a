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
interface List extends Load {
  documents: number;
  ratioP50: number;
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
    renderOnly: { throughputPerSecond: number };
    /** At concurrency 1, 8 and 32. */
    create: [Load, Load, Load];
    createAt8ToRenderOnlyThroughput: number;
    qrDownload: Load;
    trivialRoute: Load;
    qrToTrivialThroughput: number;
    /** With 100, 10 000 and 100 000 documents in the caller's window. */
    list: [List, List, List];
  };
}

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

function rows({ bench, http }: BenchResults): Row[] {
  const { minimal, full, long, grouped } = bench.render;
  const { render: withFallback, cold: coldFallback } = bench.fallback;
  /** One figure of each document that needs fallback fonts, "a / b / c". */
  const eachFallback = (figure: (name: FallbackFixtureName) => string) =>
    (Object.keys(withFallback) as FallbackFixtureName[])
      .map(figure)
      .join(" / ");
  const fallbackNames = eachFallback((name) => name);
  const { create } = http;
  const [, create8] = create;
  const [, , list100k] = http.list;
  const largestPdf = Math.max(minimal.pdfBytes, full.pdfBytes, long.pdfBytes);
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
      ["≤ 25 KB", largestPdf <= 25_000],
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
    [
      "Create at c=8 against render-only",
      `${whole(create8.throughputPerSecond)} vs ${whole(http.renderOnly.throughputPerSecond)} documents/s: ${times(http.createAt8ToRenderOnlyThroughput, 2)}`,
      ["≥ 0.4×", http.createAt8ToRenderOnlyThroughput >= 0.4],
    ],
    [
      "QR download vs `GET /nonexistent`, c=32",
      `${whole(http.qrDownload.throughputPerSecond)} vs ${whole(http.trivialRoute.throughputPerSecond)} req/s: ${times(http.qrToTrivialThroughput, 2)}`,
      ["≥ 0.5×", http.qrToTrivialThroughput >= 0.5],
    ],
    [
      `List p50, ${http.list.map((run) => thousands(run.documents)).join(" / ")} documents`,
      `${http.list.map((run) => whole(run.p50Ms)).join(" / ")} ms: ${times(list100k.ratioP50)} of the smallest at 100 000`,
      ["≤ 3× at 100 000", list100k.ratioP50 <= 3],
    ],
  ];
}

/** The table as Markdown, with the run it comes from. */
export function benchTable(results: BenchResults): string {
  const { bench, http } = results;
  const commits =
    bench.commit === http.commit
      ? `commit ${bench.commit.slice(0, 7)}`
      : `commits ${bench.commit.slice(0, 7)} (bench) and ${http.commit.slice(0, 7)} (bench:http)`;
  return [
    `Medians of the last runs in \`bench/results.json\` (${commits}, ${bench.cpus} × ${bench.cpu}):`,
    "",
    "| Figure (median) | Measured | Target | Met |",
    "| --- | --- | --- | --- |",
    ...rows(results).map(
      ([figure, measured, target]) =>
        `| ${figure} | ${measured} | ${target?.[0] ?? ""} | ${target ? met(target[1]) : ""} |`,
    ),
  ].join("\n");
}
