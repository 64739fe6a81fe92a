// Timing helpers shared by the benchmarks: samples in milliseconds, summarized
// by median and p99 (nearest rank).

export interface Summary {
  runs: number;
  median: number;
  p99: number;
  min: number;
  max: number;
}

const round = (value: number, digits = 3): number =>
  Number(value.toFixed(digits));

/** The value at `fraction` of the sorted samples, nearest rank. */
export function percentile(
  samples: readonly number[],
  fraction: number,
): number {
  const sorted = [...samples].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil(fraction * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

export function summarize(samples: readonly number[]): Summary {
  return {
    runs: samples.length,
    median: round(percentile(samples, 0.5)),
    p99: round(percentile(samples, 0.99)),
    min: round(Math.min(...samples)),
    max: round(Math.max(...samples)),
  };
}

/**
 * Wall-clock and CPU samples, in milliseconds: the CPU (user + system) of the
 * measuring thread alone, as an isolate's is billed, without V8's helper
 * threads or another thread's work in the same process.
 */
export interface Samples {
  wall: number[];
  cpu: number[];
}

/** Runs `task` `warmup` times unmeasured, then `runs` times measured, one at a time. */
export async function measure(
  task: () => unknown,
  { warmup, runs }: { warmup: number; runs: number },
): Promise<Samples> {
  for (let i = 0; i < warmup; i++) await task();
  const samples: Samples = { wall: [], cpu: [] };
  for (let i = 0; i < runs; i++) {
    const cpu = process.threadCpuUsage();
    const start = performance.now();
    await task();
    samples.wall.push(performance.now() - start);
    const used = process.threadCpuUsage(cpu);
    samples.cpu.push((used.user + used.system) / 1000);
  }
  return samples;
}

/**
 * Wall-clock summary, with the CPU time's median, p99 and least beside it
 * (the least: what the regression bound of test/pdf compares against).
 */
export function summarizeRuns(
  samples: Samples,
): Summary & { cpuMedian: number; cpuP99: number; cpuMin: number } {
  const cpu = summarize(samples.cpu);
  return {
    ...summarize(samples.wall),
    cpuMedian: cpu.median,
    cpuP99: cpu.p99,
    cpuMin: cpu.min,
  };
}

export { round };
