import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { benchTable, withTable } from "../../bench/readme-table";

describe("docs/performance.md's table of figures", () => {
  it("is the one bench/results.json makes (npm run bench:table)", async () => {
    const readme = await readFile("docs/performance.md", "utf8");
    const results = JSON.parse(await readFile("bench/results.json", "utf8"));
    expect(readme).toBe(withTable(readme, benchTable(results)));
  });
});
