import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { benchTable } from "../../bench/bench-table";
import {
  BENCH_TABLE,
  PERFORMANCE_DOC,
  withBlock,
} from "../../bench/performance-doc";

describe(`the table of figures of ${PERFORMANCE_DOC}`, () => {
  it("is the one bench/results.json makes (npm run bench:table)", async () => {
    const text = await readFile(PERFORMANCE_DOC, "utf8");
    const results = JSON.parse(await readFile("bench/results.json", "utf8"));
    expect(text).toBe(withBlock(text, BENCH_TABLE, benchTable(results)));
  });
});
