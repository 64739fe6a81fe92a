// `npm run bench:cpu -- --profile`: one V8 CPU profile per operation (its
// measured requests, prepared beforehand), written as NAME.cpuprofile into a temporary folder
// (open it in Chrome DevTools' Performance panel or speedscope for a flame
// graph), and the functions with the most self time of one operation printed.
import { mkdtemp, writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = new URL("..", import.meta.url).pathname;
/** Microseconds between samples: a create is a few milliseconds. */
const SAMPLING_INTERVAL_US = 50;
const TOP = 10;

interface ProfileNode {
  id: number;
  callFrame: {
    functionName: string;
    url: string;
    lineNumber: number;
  };
  hitCount?: number;
}

interface Profile {
  nodes: ProfileNode[];
}

export interface CpuProfiler {
  start(): Promise<void>;
  /** Stops, and writes what was sampled since `start` as `name`'s profile. */
  stop(name: string): Promise<void>;
  /** Prints the functions with the most self time in `name`'s profile. */
  report(name: string): void;
}

/** `file:///…/src/pdf/fonts.ts` as `src/pdf/fonts.ts`. */
const place = (url: string): string =>
  url.startsWith("file://") ? relative(ROOT, fileURLToPath(url)) : url;

/** The functions with the most self time, with their share of the profile's samples. */
function topSelfTime(
  profile: Profile,
  top = TOP,
): { name: string; share: number }[] {
  const hits = new Map<string, number>();
  let total = 0;
  for (const { callFrame, hitCount = 0 } of profile.nodes) {
    if (callFrame.functionName === "(idle)") continue;
    const name = callFrame.url
      ? `${callFrame.functionName || "(anonymous)"} ${place(callFrame.url)}:${callFrame.lineNumber + 1}`
      : callFrame.functionName;
    hits.set(name, (hits.get(name) ?? 0) + hitCount);
    total += hitCount;
  }
  return [...hits]
    .sort(([, a], [, b]) => b - a)
    .slice(0, top)
    .map(([name, count]) => ({ name, share: count / total }));
}

/** A profiler of this process, writing into a new temporary folder. */
export async function startProfiling(): Promise<CpuProfiler> {
  const folder = await mkdtemp(join(tmpdir(), "deca-cpu-profiles-"));
  console.error(`bench:cpu: CPU profiles in ${folder}`);
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", {
    interval: SAMPLING_INTERVAL_US,
  });
  const profiles = new Map<string, Profile>();
  return {
    start: async () => {
      await session.post("Profiler.start");
    },
    async stop(name) {
      const { profile } = (await session.post("Profiler.stop")) as {
        profile: Profile;
      };
      profiles.set(name, profile);
      await writeFile(
        join(folder, `${name}.cpuprofile`),
        JSON.stringify(profile),
      );
    },
    report(name) {
      const profile = profiles.get(name);
      if (!profile) return;
      console.error(`Top ${TOP} functions by self time, ${name}:`);
      for (const { name: fn, share } of topSelfTime(profile)) {
        console.error(`${(100 * share).toFixed(1).padStart(5)}%  ${fn}`);
      }
    },
  };
}
