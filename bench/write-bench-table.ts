// `npm run bench:table`: rewrites the table of figures of docs/performance.md
// from bench/results.json.
import { readFile, writeFile } from "node:fs/promises";
import { type BenchResults, benchTable } from "./bench-table";
import { BENCH_TABLE, PERFORMANCE_DOC, withBlock } from "./performance-doc";

const file = new URL(`../${PERFORMANCE_DOC}`, import.meta.url);
const results: BenchResults = JSON.parse(
  await readFile(new URL("./results.json", import.meta.url), "utf8"),
);
const text = await readFile(file, "utf8");
await writeFile(file, withBlock(text, BENCH_TABLE, benchTable(results)));
