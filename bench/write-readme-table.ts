// `npm run bench:table`: rewrites the table of figures in docs/performance.md from bench/results.json.
import { readFile, writeFile } from "node:fs/promises";
import { type BenchResults, benchTable, withTable } from "./readme-table";

const PERFORMANCE = new URL("../docs/performance.md", import.meta.url);
const results: BenchResults = JSON.parse(
  await readFile(new URL("./results.json", import.meta.url), "utf8"),
);
const page = await readFile(PERFORMANCE, "utf8");
await writeFile(PERFORMANCE, withTable(page, benchTable(results)));
