// `npm run roundtrips:table`: runs test/roundtrips in workerd and rewrites the
// round-trip table of docs/performance.md with the one it measured, which the
// test hands over in its task's meta (a test never writes the repository).
import { readFile, writeFile } from "node:fs/promises";
import { startVitest } from "vitest/node";
import {
  PERFORMANCE_DOC,
  ROUND_TRIP_TABLE,
  withBlock,
} from "./performance-doc";

// No reporter: the comparison fails whenever the table changed, which is
// what this script is for; the other failures are printed below.
const vitest = await startVitest(
  "test",
  ["test/roundtrips/roundtrips.test.ts"],
  { project: ["worker"], watch: false, reporters: [{}] },
);
const tests = vitest.state
  .getTestModules()
  .flatMap((module) => [...module.children.allTests()]);
await vitest.close();

const table = tests
  .map((test) => test.meta().roundTripTable)
  .find((measured) => measured !== undefined);
const failed = tests.filter(
  (test) =>
    test.result().state === "failed" &&
    test.meta().roundTripTable === undefined,
);
for (const test of failed) {
  const errors = test.result().errors ?? [];
  console.error(
    `✗ ${test.fullName}\n  ${errors.map((error) => error.message).join("\n  ")}`,
  );
}
if (table === undefined) {
  console.error(`No table measured: ${PERFORMANCE_DOC} is unchanged.`);
  process.exit(1);
}
const file = new URL(`../${PERFORMANCE_DOC}`, import.meta.url);
const text = await readFile(file, "utf8");
const rewritten = withBlock(text, ROUND_TRIP_TABLE, table);
await writeFile(file, rewritten);
console.log(
  `${PERFORMANCE_DOC}: round-trip table ${rewritten === text ? "unchanged" : "rewritten"}.`,
);
process.exitCode = failed.length > 0 ? 1 : 0;
