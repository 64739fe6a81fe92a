// `npm run bench`: the renderer, the issuing step and the eFTI export in one Node process
// (warm-up runs excluded), cold start and peak heap in fresh processes, and
// the Worker bundle's size. Prints a table; writes bench/results.json.
import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { fallbackFontsFor } from "../src/domain/documents/fallback-fonts";
import type { DocumentPdfInput } from "../src/domain/documents/render-port";
import { STREAM_DRAWING } from "../src/pdf/drawing";
import { drawUnsealedPdf, renderDocumentPdf } from "../src/pdf/render-document";
import { sealBytes } from "../src/pdf/seal";
import { checkPdfStructure } from "../test/pdf/pdf-tools";
import { diskFontSource } from "./disk-fonts";
import { eftiExportFigures } from "./efti-export";
import {
  FALLBACK_DOCUMENTS,
  type FallbackFixtureName,
  type FixtureName,
  fullRequest,
  RENDER_FIXTURES,
  renderInput,
} from "./fixtures";
import { issueWithoutIo } from "./issue-step";
import { compareWithNaiveBaseline } from "./naive/compare";
import { renderNaiveDocumentPdf as renderNaive } from "./naive/render-document";
import { mergeResults, runEnvironment } from "./results";
import {
  measure,
  round,
  type Summary,
  summarize,
  summarizeRuns,
} from "./stats";

const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const WARMUP = 30;
const COLD_PROCESSES = Number(process.env.BENCH_COLD_PROCESSES ?? 20);
const ROOT = new URL("..", import.meta.url).pathname;
const FONTS = diskFontSource(ROOT);

/** Whether MuPDF finds the file sound (see test/pdf/pdf-tools.ts). */
const passesStructureCheck = (bytes: Uint8Array): Promise<boolean> =>
  checkPdfStructure(bytes).then(
    () => true,
    () => false,
  );

/**
 * `input` rendered: pages and size, whether a second render gives the same
 * bytes and MuPDF finds them sound, and the times of RUNS renders after
 * WARMUP ones.
 */
async function renderedFigures(input: DocumentPdfInput) {
  const rendered = await renderDocumentPdf(input);
  const again = await renderDocumentPdf(input);
  return {
    pages: rendered.pages,
    pdfBytes: rendered.bytes.byteLength,
    deterministic: Buffer.from(rendered.bytes).equals(Buffer.from(again.bytes)),
    qpdfCheck: await passesStructureCheck(rendered.bytes),
    renderMs: summarizeRuns(
      await measure(() => renderDocumentPdf(input), {
        warmup: WARMUP,
        runs: RUNS,
      }),
    ),
  };
}

async function renderFigures() {
  const figures: Record<string, unknown> = {};
  for (const name of Object.keys(RENDER_FIXTURES) as FixtureName[]) {
    const input = RENDER_FIXTURES[name];
    const optimized = await renderedFigures(input);
    const naive = await renderNaive(input);
    const naiveMs = summarizeRuns(
      await measure(() => renderNaive(input), { warmup: WARMUP, runs: RUNS }),
    );
    figures[name] = {
      ...optimized,
      naive: {
        pages: naive.pages,
        pdfBytes: naive.bytes.byteLength,
        renderMs: naiveMs,
      },
      speedup: round(naiveMs.median / optimized.renderMs.median, 2),
    };
  }
  return figures;
}

/**
 * The documents that need fallback fonts: the fonts read once, as an isolate
 * keeps them, then rendered as the ordinary ones. The first render parses
 * the fonts and is not measured here (see fallbackColdFigures).
 */
async function fallbackRenderFigures() {
  const figures: Record<string, unknown> = {};
  for (const name of Object.keys(FALLBACK_DOCUMENTS) as FallbackFixtureName[]) {
    const fallbackFonts = await fallbackFontsFor(
      FONTS,
      FALLBACK_DOCUMENTS[name],
    );
    figures[name] = {
      families: [...fallbackFonts.keys()],
      fontFileBytes: [...fallbackFonts.values()].reduce(
        (sum, bytes) => sum + bytes.byteLength,
        0,
      ),
      ...(await renderedFigures({
        ...renderInput(FALLBACK_DOCUMENTS[name]),
        fallbackFonts,
      })),
    };
  }
  return figures;
}

/**
 * The seal alone on the full one-page document's drawn file: the SHA-256 of
 * the signed ranges, the CMS with its RSA signature, the hex written in.
 * Node's WebCrypto signs on another thread: the CPU figure counts it.
 */
async function sealFigures() {
  const input = RENDER_FIXTURES.full;
  const { unsealed } = await drawUnsealedPdf(input, STREAM_DRAWING);
  return {
    full: summarizeRuns(
      await measure(() => sealBytes(unsealed, input.seal), {
        warmup: WARMUP,
        runs: RUNS,
      }),
    ),
  };
}

async function issuingFigures() {
  let n = 0;
  const uuid = () => `0b6f4d2e-8c1a-4f3b-9e7d-${String(n++).padStart(12, "0")}`;
  const createdAt = Date.UTC(2026, 10, 21, 12);
  const samples = await measure(
    () => issueWithoutIo(fullRequest(), uuid(), createdAt, FONTS),
    {
      warmup: WARMUP,
      runs: RUNS,
    },
  );
  return { full: summarizeRuns(samples) };
}

/** The issuing modules as one ES module, fonts as bytes, as the Worker loads them. */
async function bundleForChildren(directory: string) {
  const common = {
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node22",
  } as const;
  await build({
    ...common,
    // Resolved as wrangler resolves the Worker's imports (workerd, browser).
    // Platform "node" only so that the fonts decode with Buffer: in the
    // Worker they are Data modules, ArrayBuffers that cost nothing to load,
    // while esbuild's browser decoder spends some 25 ms on their base64.
    platform: "node",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["browser", "module", "main"],
    external: ["node:*"],
    entryPoints: [join(ROOT, "bench/cold-entry.ts")],
    outfile: join(directory, "issuing.mjs"),
    loader: { ".ttf": "binary" },
    // As wrangler.toml's [alias]: no WOFF2 decoder in the Worker.
    alias: { "brotli/decompress.js": join(ROOT, "src/pdf/no-brotli.ts") },
  });
  for (const child of ["cold-child", "heap-child"]) {
    await build({
      ...common,
      entryPoints: [join(ROOT, `bench/${child}.ts`)],
      outfile: join(directory, `${child}.mjs`),
    });
  }
  return join(directory, "issuing.mjs");
}

function child<T>(script: string, args: string[], nodeFlags: string[] = []): T {
  const output = execFileSync(
    process.execPath,
    [...nodeFlags, script, ...args],
    {
      encoding: "utf8",
    },
  );
  return JSON.parse(output) as T;
}

interface ColdRun {
  moduleEvaluationMs: number;
  firstDocumentMs: number;
  secondDocumentMs: number;
  moduleEvaluationCpuMs: number;
  firstDocumentCpuMs: number;
  fontReadMs: number;
}

/** The request named, issued first in each of COLD_PROCESSES fresh processes. */
function coldRuns(directory: string, bundle: string, request: string) {
  const runs: ColdRun[] = [];
  for (let i = 0; i < COLD_PROCESSES; i++) {
    runs.push(
      child<ColdRun>(join(directory, "cold-child.mjs"), [
        bundle,
        ROOT,
        request,
      ]),
    );
  }
  return {
    runs,
    of: (key: keyof ColdRun): Summary => summarize(runs.map((run) => run[key])),
  };
}

function coldFigures(directory: string, bundle: string) {
  const { runs, of } = coldRuns(directory, bundle, "full");
  return {
    processes: runs.length,
    moduleEvaluationMs: of("moduleEvaluationMs"),
    firstDocumentMs: of("firstDocumentMs"),
    secondDocumentMs: of("secondDocumentMs"),
    moduleEvaluationCpuMs: of("moduleEvaluationCpuMs"),
    firstDocumentCpuMs: of("firstDocumentCpuMs"),
    firstDocumentIncludingEvaluationMs: summarize(
      runs.map((run) => run.moduleEvaluationMs + run.firstDocumentMs),
    ),
  };
}

/**
 * The first document that needs fallback fonts in a fresh process: reading
 * the files (from disk here, from R2 in the Worker) and parsing them, the CJK
 * font's 10 MB among them, on top of what the first ordinary document costs.
 */
function fallbackColdFigures(directory: string, bundle: string) {
  const figures: Record<string, unknown> = {};
  for (const name of Object.keys(FALLBACK_DOCUMENTS)) {
    const { runs, of } = coldRuns(directory, bundle, name);
    figures[name] = {
      processes: runs.length,
      fontReadMs: of("fontReadMs"),
      firstDocumentMs: of("firstDocumentMs"),
      firstDocumentCpuMs: of("firstDocumentCpuMs"),
      secondDocumentMs: of("secondDocumentMs"),
    };
  }
  return figures;
}

function heapFigures(directory: string, bundle: string) {
  const heap = child<Record<string, number>>(
    join(directory, "heap-child.mjs"),
    [bundle, ROOT],
    ["--expose-gc"],
  );
  const mib = (bytes: number | undefined) =>
    round((bytes ?? 0) / 1024 / 1024, 2);
  return {
    document: "every text field at its maximum length, 16 KiB metadata",
    pages: heap.pages,
    pdfBytes: heap.pdfBytes,
    peakUsedHeapMiB: mib(heap.peakUsedBytes),
    peakTotalHeapMiB: mib(heap.peakTotalBytes),
    baselineUsedHeapMiB: mib(heap.baselineUsedBytes),
    peakRssMiB: mib(heap.peakRssBytes),
  };
}

async function bundleFigures(directory: string) {
  const outdir = join(directory, "worker");
  execFileSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", outdir], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const files: Record<string, { raw: number; gzip: number }> = {};
  let raw = 0;
  let gzip = 0;
  for (const name of await readdir(outdir)) {
    if (name.endsWith(".map")) continue;
    const path = join(outdir, name);
    if (!(await stat(path)).isFile()) continue;
    const bytes = await readFile(path);
    const zipped = gzipSync(bytes, { level: 9 }).byteLength;
    files[name] = { raw: bytes.byteLength, gzip: zipped };
    raw += bytes.byteLength;
    gzip += zipped;
  }
  return { rawBytes: raw, gzipBytes: gzip, files };
}

async function main(): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), "deca-bench-"));
  try {
    console.error(
      `bench: ${RUNS} measured runs after ${WARMUP} warm-up runs, ${cpus()[0]?.model}`,
    );
    const naiveBaseline = await compareWithNaiveBaseline();
    console.error("bench: the naive baseline prints the same pages");
    const render = await renderFigures();
    const fallbackRender = await fallbackRenderFigures();
    const seal = await sealFigures();
    const issuing = await issuingFigures();
    const eftiExport = await eftiExportFigures({ warmup: WARMUP, runs: RUNS });
    const bundle = await bundleForChildren(directory);
    const cold = coldFigures(directory, bundle);
    const fallbackCold = fallbackColdFigures(directory, bundle);
    const heap = heapFigures(directory, bundle);
    const workerBundle = await bundleFigures(directory);
    const bench = {
      ...runEnvironment(),
      runs: RUNS,
      warmup: WARMUP,
      naiveBaseline,
      render,
      fallback: { render: fallbackRender, cold: fallbackCold },
      seal,
      issuing,
      eftiExport,
      cold,
      heap,
      workerBundle,
    };
    await mergeResults({ bench });
    printTable(bench);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

// biome-ignore lint/suspicious/noExplicitAny: a printed report of the figures above
function printTable(bench: any): void {
  const rows: [string, string][] = [];
  for (const name of Object.keys(RENDER_FIXTURES)) {
    const r = bench.render[name];
    rows.push([
      `render ${name} (${r.pages} p, ${r.pdfBytes} B)`,
      `median ${r.renderMs.median} ms (CPU ${r.renderMs.cpuMedian}), p99 ${r.renderMs.p99} ms; naive median ${r.naive.renderMs.median} ms (CPU ${r.naive.renderMs.cpuMedian}), p99 ${r.naive.renderMs.p99} ms (${r.naive.pdfBytes} B); ${r.speedup}x`,
    ]);
  }
  for (const name of Object.keys(FALLBACK_DOCUMENTS)) {
    const r = bench.fallback.render[name];
    const cold = bench.fallback.cold[name];
    rows.push([
      `fallback ${name} (${r.families.join(", ")}; ${r.pages} p, ${r.pdfBytes} B)`,
      `median ${r.renderMs.median} ms (CPU ${r.renderMs.cpuMedian}), p99 ${r.renderMs.p99} ms; first in a fresh process ${cold.firstDocumentMs.median} ms (font read ${cold.fontReadMs.median} ms)`,
    ]);
  }
  rows.push([
    "seal, full (digest, CMS, RSA signature)",
    `median ${bench.seal.full.median} ms (CPU ${bench.seal.full.cpuMedian}), p99 ${bench.seal.full.p99} ms`,
  ]);
  rows.push([
    "issuing step, full, no I/O",
    `median ${bench.issuing.full.median} ms (CPU ${bench.issuing.full.cpuMedian}), p99 ${bench.issuing.full.p99} ms`,
  ]);
  rows.push([
    "eFTI export, full (1 consignment)",
    `median ${bench.eftiExport.single.median} ms (CPU ${bench.eftiExport.single.cpuMedian}), p99 ${bench.eftiExport.single.p99} ms`,
  ]);
  rows.push([
    "eFTI export, route of 100 shipments",
    `median ${bench.eftiExport.grouped100.median} ms (CPU ${bench.eftiExport.grouped100.cpuMedian}), p99 ${bench.eftiExport.grouped100.p99} ms`,
  ]);
  rows.push([
    "cold: module evaluation",
    `median ${bench.cold.moduleEvaluationMs.median} ms (CPU ${bench.cold.moduleEvaluationCpuMs.median}), p99 ${bench.cold.moduleEvaluationMs.p99} ms`,
  ]);
  rows.push([
    "cold: first document",
    `median ${bench.cold.firstDocumentMs.median} ms (CPU ${bench.cold.firstDocumentCpuMs.median}), p99 ${bench.cold.firstDocumentMs.p99} ms (second ${bench.cold.secondDocumentMs.median} ms)`,
  ]);
  rows.push([
    "peak heap, largest document",
    `${bench.heap.peakUsedHeapMiB} MiB used, ${bench.heap.peakTotalHeapMiB} MiB total (${bench.heap.pages} p)`,
  ]);
  rows.push([
    "worker bundle",
    `${round(bench.workerBundle.rawBytes / 1024, 1)} KiB raw, ${round(bench.workerBundle.gzipBytes / 1024, 1)} KiB gzip`,
  ]);
  const width = Math.max(...rows.map(([label]) => label.length));
  for (const [label, value] of rows)
    console.log(`${label.padEnd(width)}  ${value}`);
}

await main();
