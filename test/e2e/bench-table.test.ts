import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { benchTable, readmeTable } from "../../bench/bench-table";
import {
  BENCH_TABLE,
  PERFORMANCE_DOC,
  README,
  README_BENCH_TABLE,
  withBlock,
} from "../../bench/performance-doc";

const results = async () =>
  JSON.parse(await readFile("bench/results.json", "utf8"));

describe("the tables of figures made from bench/results.json (npm run bench:table)", () => {
  it(`in ${PERFORMANCE_DOC}, are the ones the results make`, async () => {
    const text = await readFile(PERFORMANCE_DOC, "utf8");
    expect(text).toBe(
      withBlock(text, BENCH_TABLE, benchTable(await results())),
    );
  });

  it(`in ${README}, are the ones the results make`, async () => {
    const text = await readFile(README, "utf8");
    expect(text).toBe(
      withBlock(text, README_BENCH_TABLE, readmeTable(await results())),
    );
  });
});
