// The CPU time `npm start` spends, read from Linux's /proc: every process
// started for one state folder (wrangler and the workerd processes under
// it), and the busiest thread among them. Locally one workerd thread runs
// the Worker's isolate and the emulated D1, R2 and Durable Objects alike, so
// that thread's time per request is what caps the local throughput.
import { readdirSync, readFileSync } from "node:fs";

/** CPU milliseconds of each thread, by "pid/tid". */
export type ThreadTimes = Map<string, number>;

/** `utime + stime` of a /proc stat line, in milliseconds (100 ticks a second). */
function statCpuMs(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
};

/** The processes whose command line names `stateDir`, and all their descendants. */
export function serviceProcesses(stateDir: string): string[] {
  const parents = new Map<string, string>();
  const found = new Set<string>();
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    const stat = read(`/proc/${pid}/stat`);
    if (!stat) continue;
    parents.set(pid, stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1] ?? "");
    if (read(`/proc/${pid}/cmdline`)?.includes(stateDir)) found.add(pid);
  }
  let added = true;
  while (added) {
    added = false;
    for (const [pid, parent] of parents) {
      if (!found.has(pid) && found.has(parent)) {
        found.add(pid);
        added = true;
      }
    }
  }
  return [...found];
}

export function threadTimes(pids: string[]): ThreadTimes {
  const times: ThreadTimes = new Map();
  for (const pid of pids) {
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {}
    for (const tid of tids) {
      const stat = read(`/proc/${pid}/task/${tid}/stat`);
      if (stat) times.set(`${pid}/${tid}`, statCpuMs(stat));
    }
  }
  return times;
}

/** CPU per request between two readings: all threads, and the busiest one. */
export function cpuPerRequest(
  before: ThreadTimes,
  after: ThreadTimes,
  requests: number,
): { serviceCpuMs: number; busiestThreadCpuMs: number } {
  let total = 0;
  let busiest = 0;
  for (const [thread, ms] of after) {
    const spent = ms - (before.get(thread) ?? 0);
    total += spent;
    busiest = Math.max(busiest, spent);
  }
  return {
    serviceCpuMs: total / requests,
    busiestThreadCpuMs: busiest / requests,
  };
}
