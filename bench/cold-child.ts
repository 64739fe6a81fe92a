// One fresh process (bench/run.ts spawns it with plain Node, no tsx): times
// the evaluation of the bundled issuing modules, then the first document.
import { pathToFileURL } from "node:url";

const bundle = process.argv[2];
if (!bundle) throw new Error("usage: node cold-child.mjs <bundle.mjs>");

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
  ) => Promise<unknown>;
  fullRequest: () => unknown;
};
const evaluated = performance.now();
const evaluatedCpu = cpuMs();
await modules.issueWithoutIo(
  modules.fullRequest(),
  "0b6f4d2e-8c1a-4f3b-9e7d-5a2c1b0f9e84",
  Date.UTC(2026, 10, 21, 12),
);
const firstDocument = performance.now();
const firstDocumentCpu = cpuMs();
await modules.issueWithoutIo(
  modules.fullRequest(),
  "0b6f4d2e-8c1a-4f3b-9e7d-5a2c1b0f9e85",
  Date.UTC(2026, 10, 21, 12),
);
const secondDocument = performance.now();
process.stdout.write(
  JSON.stringify({
    moduleEvaluationMs: evaluated - start,
    firstDocumentMs: firstDocument - evaluated,
    secondDocumentMs: secondDocument - firstDocument,
    moduleEvaluationCpuMs: evaluatedCpu - startCpu,
    firstDocumentCpuMs: firstDocumentCpu - evaluatedCpu,
  }),
);
