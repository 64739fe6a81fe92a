import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { diskFontSource } from "../../bench/disk-fonts";
import { EFTI_EXPORTS } from "../../bench/efti-export";
import { fullRequest, RENDER_FIXTURES } from "../../bench/fixtures";
import { issueWithoutIo } from "../../bench/issue-step";
import { renderNaiveDocumentPdf } from "../../bench/naive/render-document";
import { measure } from "../../bench/stats";
import { renderDocumentPdf } from "../../src/pdf/render-document";

// A bound for a blow-up or a hang in CI, not a timing test: each operation
// of the in-process benchmark (`npm run bench`), measured briefly here, may
// cost at most half again its figure recorded in bench/results.json (or 1 ms
// more). Its runs alternate with the naive baseline's render of the full
// document, so that a machine slower than the recording one, or busier at
// that moment, moves both alike; each side counts its fastest run, the one
// another process's load touched least, and its own thread's CPU. Load
// still slows the two unevenly at times: an operation fails only when three
// measurements in a row exceed the bound, as a real regression does.

const ROOT = new URL("../..", import.meta.url).pathname;
const WARMUP = 10;
const RUNS = 40;
const ATTEMPTS = 3;
const GROWTH = 1.5;
const NOISE_MS = 1;

interface Timing {
  /** The fastest run's CPU: the least another process's load touched. */
  cpuMin: number;
}
const recorded = JSON.parse(readFileSync(`${ROOT}bench/results.json`, "utf8"))
  .bench as {
  render: Record<string, { renderMs: Timing; naive: { renderMs: Timing } }>;
  issuing: { full: Timing };
  eftiExport: { single: Timing; grouped100: Timing };
};
const recordedBaseline =
  recorded.render.full?.naive.renderMs.cpuMin ?? Number.NaN;
const baseline = () => renderNaiveDocumentPdf(RENDER_FIXTURES.full);

/** The fastest of RUNS runs of `task` and of the baseline, taken in turns. */
async function leastCpu(task: () => unknown) {
  await measure(task, { warmup: WARMUP, runs: 0 });
  await measure(baseline, { warmup: WARMUP, runs: 0 });
  let least = Number.POSITIVE_INFINITY;
  let leastBaseline = Number.POSITIVE_INFINITY;
  for (let run = 0; run < RUNS; run++) {
    const [ran] = (await measure(task, { warmup: 0, runs: 1 })).cpu;
    const [ranBaseline] = (await measure(baseline, { warmup: 0, runs: 1 })).cpu;
    least = Math.min(least, ran ?? least);
    leastBaseline = Math.min(leastBaseline, ranBaseline ?? leastBaseline);
  }
  return { now: least, scale: leastBaseline / recordedBaseline };
}

const fonts = diskFontSource(ROOT);
let n = 0;
const OPERATIONS: [string, () => unknown, number][] = [
  ...Object.entries(RENDER_FIXTURES).map(
    ([name, input]): [string, () => unknown, number] => [
      `render ${name}`,
      () => renderDocumentPdf(input),
      recorded.render[name]?.renderMs.cpuMin ?? Number.NaN,
    ],
  ),
  [
    "issuing step, full",
    () =>
      issueWithoutIo(
        fullRequest(),
        `0b6f4d2e-8c1a-4f3b-9e7d-${String(n++).padStart(12, "0")}`,
        Date.UTC(2026, 10, 21, 12),
        fonts,
      ),
    recorded.issuing.full.cpuMin,
  ],
  ["eFTI export, full", EFTI_EXPORTS.single, recorded.eftiExport.single.cpuMin],
  [
    "eFTI export, 100 shipments",
    EFTI_EXPORTS.grouped100,
    recorded.eftiExport.grouped100.cpuMin,
  ],
];

describe("the in-process benchmark's operations against bench/results.json", () => {
  it.each(OPERATIONS)(
    "%s costs at most half again its recorded CPU",
    async (_, task, recordedMs) => {
      // Recorded, if only as 0: an operation shorter than the CPU clock's
      // resolution (the single eFTI export) may record a fastest run of 0.
      expect(recordedMs).toBeGreaterThanOrEqual(0);
      expect(recordedBaseline).toBeGreaterThan(0);
      const measurements: string[] = [];
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const { now, scale } = await leastCpu(task);
        const allowed =
          Math.max(GROWTH * recordedMs, recordedMs + NOISE_MS) * scale;
        if (now <= allowed) return;
        measurements.push(
          `${now} ms (allowed ${allowed.toFixed(3)}, this machine ${scale.toFixed(2)}× the recording one)`,
        );
      }
      expect.fail(`${recordedMs} ms recorded, now ${measurements.join("; ")}`);
    },
    120_000,
  );
});
