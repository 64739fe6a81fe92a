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
  children?: number[];
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

/** The bindings' client: what runs under it is the proxy's, which the benchmark subtracts. */
const isProxy = (url: string): boolean =>
  /bench\/binding-(client|wire)\.ts/.test(url);

/** The service's code and its dependencies (Node's fetch is the proxy's). */
const isService = (url: string): boolean =>
  /\/(src|node_modules|test\/helpers)\//.test(url) && !/undici/.test(url);

/**
 * The functions with the most self time among the samples with the
 * service's code on the stack and the bindings' client not, with their share
 * of those samples; the share of those samples among all (the rest: the
 * proxy, Node's event loop and HTTP client, and GC outside the service's
 * calls).
 */
function topSelfTime(profile: Profile, top = TOP) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const hits = new Map<string, number>();
  const byPart = new Map<string, number>();
  let worker = 0;
  let all = 0;
  const visit = (id: number, inService: boolean, inProxy: boolean) => {
    const node = byId.get(id);
    if (!node) return;
    const { callFrame, hitCount = 0, children = [] } = node;
    const service = inService || isService(callFrame.url);
    const proxied = inProxy || isProxy(callFrame.url);
    // Idle samples are waiting, not computing.
    if (callFrame.functionName !== "(idle)") all += hitCount;
    if (service && !proxied) {
      const name = callFrame.url
        ? `${callFrame.functionName || "(anonymous)"} ${place(callFrame.url)}:${callFrame.lineNumber + 1}`
        : callFrame.functionName;
      hits.set(name, (hits.get(name) ?? 0) + hitCount);
      const part = partOf(callFrame.url);
      byPart.set(part, (byPart.get(part) ?? 0) + hitCount);
      worker += hitCount;
    }
    for (const child of children) visit(child, service, proxied);
  };
  visit(profile.nodes[0]?.id ?? 0, false, false);
  const largest = (counts: Map<string, number>) =>
    [...counts]
      .sort(([, a], [, b]) => b - a)
      .slice(0, top)
      .map(([name, count]) => ({ name, share: count / worker }));
  return {
    serviceShare: worker / all,
    functions: largest(hits),
    parts: largest(byPart),
  };
}

/** The package (`fflate`, `@cantoo/pdf-lib`) or the service's folder (`src/pdf`) of a script. */
function partOf(url: string): string {
  if (!url) return "native code";
  const path = place(url);
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1];
  if (dependency) return dependency;
  if (path.startsWith("node:")) return "Node's built-in modules";
  return path.split("/").slice(0, 2).join("/");
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
      const { serviceShare, functions, parts } = topSelfTime(profile);
      console.error(
        `Top ${TOP} functions by self time, ${name}: shares of the samples in the service's code, ${(100 * serviceShare).toFixed(0)}% of all (the rest: the bindings' proxy, Node's event loop, GC outside the service's calls):`,
      );
      const print = (rows: { name: string; share: number }[]) => {
        for (const row of rows) {
          console.error(
            `${(100 * row.share).toFixed(1).padStart(5)}%  ${row.name}`,
          );
        }
      };
      print(functions);
      console.error("By package or folder of the service:");
      print(parts);
    },
  };
}
