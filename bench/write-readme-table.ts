// `npm run bench:table`: rewrites README's table of figures from bench/results.json.
import { readFile, writeFile } from "node:fs/promises";
import { type BenchResults, benchTable, withTable } from "./readme-table";

const README = new URL("../README.md", import.meta.url);
const results: BenchResults = JSON.parse(
  await readFile(new URL("./results.json", import.meta.url), "utf8"),
);
const readme = await readFile(README, "utf8");
await writeFile(README, withTable(readme, benchTable(results)));
