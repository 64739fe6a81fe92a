// One fresh process (bench/run.ts spawns it with plain Node, no tsx): times
// the evaluation of the bundled issuing modules, then the first document of
// the request named (bench/fixtures.ts), its fallback fonts read from disk.
import { pathToFileURL } from "node:url";
import type { FontStore } from "../src/storage/font-store";
import type { benchRequest } from "./fixtures";

const [bundle, root, request = "full"] = process.argv.slice(2);
if (!bundle || !root) {
  throw new Error("usage: node cold-child.mjs <bundle.mjs> <root> [request]");
}

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const startCpu = cpuMs();
const start = performance.now();
const modules = (await import(pathToFileURL(bundle).href)) as {
  issueWithoutIo: (
    body: unknown,
    uuid: string,
    createdAt: number,
    fonts: FontStore,
  ) => Promise<unknown>;
  benchRequest: typeof benchRequest;
  diskFontSource: (root: string) => FontStore;
};
const evaluated = performance.now();
const evaluatedCpu = cpuMs();

// From the first font read's start to the last one's end: the reads of one
// document run together, as issuing's R2 reads do.
const disk = modules.diskFontSource(root);
let readSpan: { start: number; end: number } | undefined;
const fonts: FontStore = {
  async load(family) {
    const readStart = performance.now();
    const bytes = await disk.load(family);
    readSpan = { start: readSpan?.start ?? readStart, end: performance.now() };
    return bytes;
  },
};
const body = modules.benchRequest(
  request as Parameters<typeof benchRequest>[0],
);
await modules.issueWithoutIo(
  body,
  "0b6f4d2e-8c1a-4f3b-9e7d-5a2c1b0f9e84",
  Date.UTC(2026, 10, 21, 12),
  fonts,
);
const firstDocument = performance.now();
const firstDocumentCpu = cpuMs();
// The second document's loads find the files kept: no read to count.
const fontReadMs = readSpan ? readSpan.end - readSpan.start : 0;
await modules.issueWithoutIo(
  body,
  "0b6f4d2e-8c1a-4f3b-9e7d-5a2c1b0f9e85",
  Date.UTC(2026, 10, 21, 12),
  fonts,
);
const secondDocument = performance.now();
process.stdout.write(
  JSON.stringify({
    moduleEvaluationMs: evaluated - start,
    firstDocumentMs: firstDocument - evaluated,
    secondDocumentMs: secondDocument - firstDocument,
    moduleEvaluationCpuMs: evaluatedCpu - startCpu,
    firstDocumentCpuMs: firstDocumentCpu - evaluatedCpu,
    fontReadMs,
  }),
);
