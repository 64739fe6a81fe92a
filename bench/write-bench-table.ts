// `npm run bench:table`: rewrites the tables of figures of docs/performance.md
// and README.md from bench/results.json.
import { readFile, writeFile } from "node:fs/promises";
import { type BenchResults, benchTable, readmeTable } from "./bench-table";
import {
  BENCH_TABLE,
  PERFORMANCE_DOC,
  README,
  README_BENCH_TABLE,
  withBlock,
} from "./performance-doc";

const results: BenchResults = JSON.parse(
  await readFile(new URL("./results.json", import.meta.url), "utf8"),
);
for (const [path, markers, table] of [
  [PERFORMANCE_DOC, BENCH_TABLE, benchTable(results)],
  [README, README_BENCH_TABLE, readmeTable(results)],
] as const) {
  const file = new URL(`../${path}`, import.meta.url);
  const text = await readFile(file, "utf8");
  await writeFile(file, withBlock(text, markers, table));
}
