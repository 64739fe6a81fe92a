// One fresh process (bench/run.ts spawns it with --expose-gc): the peak V8
// heap while issuing the largest valid document, from the heap statistics
// that V8 records before every garbage collection.

import { pathToFileURL } from "node:url";
import { GCProfiler, getHeapStatistics } from "node:v8";
import type { FontStore } from "../src/storage/font-store";

const [bundle, root] = process.argv.slice(2);
if (!bundle || !root) {
  throw new Error("usage: node heap-child.mjs <bundle.mjs> <root>");
}
const { issueWithoutIo, largestRequest, diskFontSource } = (await import(
  pathToFileURL(bundle).href
)) as {
  issueWithoutIo: (
    body: unknown,
    uuid: string,
    createdAt: number,
    fonts: FontStore,
  ) => Promise<{ pdfBytes: number; pages: number }>;
  largestRequest: () => unknown;
  diskFontSource: (root: string) => FontStore;
};
const fonts = diskFontSource(root);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc");

gc();
const before = getHeapStatistics();
const profiler = new GCProfiler();
profiler.start();
let peakUsed = before.used_heap_size;
let peakTotal = before.total_heap_size;
let result = { pdfBytes: 0, pages: 0 };
for (let i = 0; i < 3; i++) {
  result = await issueWithoutIo(
    largestRequest(),
    `0b6f4d2e-8c1a-4f3b-9e7d-5a2c1b0f9e8${i}`,
    Date.UTC(2026, 10, 21, 12),
    fonts,
  );
  const now = getHeapStatistics();
  peakUsed = Math.max(peakUsed, now.used_heap_size);
  peakTotal = Math.max(peakTotal, now.total_heap_size);
}
const profile = profiler.stop();
for (const { beforeGC } of profile?.statistics ?? []) {
  peakUsed = Math.max(peakUsed, beforeGC.heapStatistics.usedHeapSize);
  peakTotal = Math.max(peakTotal, beforeGC.heapStatistics.totalHeapSize);
}
process.stdout.write(
  JSON.stringify({
    baselineUsedBytes: before.used_heap_size,
    peakUsedBytes: peakUsed,
    peakTotalBytes: peakTotal,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    pdfBytes: result.pdfBytes,
    pages: result.pages,
  }),
);
