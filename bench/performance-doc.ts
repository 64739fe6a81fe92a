// The generated tables of docs/performance.md and README.md: the benchmarks'
// figures (`npm run bench:table`) and the round trips of every operation
// (`npm run roundtrips:table`). Tests only compare them; those scripts,
// run in Node, are the only writers.

// Loads the module whose TaskMeta the declaration below adds to.
import type {} from "vitest";

/** The file that holds both tables, from the repository's root. */
export const PERFORMANCE_DOC = "docs/performance.md";

type Markers = readonly [start: string, end: string];

export const BENCH_TABLE: Markers = [
  "<!-- bench-table:start (npm run bench:table) -->",
  "<!-- bench-table:end -->",
];

/** README's table of the figures `npm run bench:http` measures from outside. */
export const README = "README.md";

export const README_BENCH_TABLE: Markers = [
  "<!-- bench-http-table:start (npm run bench:table) -->",
  "<!-- bench-http-table:end -->",
];

export const ROUND_TRIP_TABLE: Markers = [
  "<!-- round-trips:start (npm run roundtrips:table) -->",
  "<!-- round-trips:end -->",
];

declare module "vitest" {
  interface TaskMeta {
    /** The round-trip table test/roundtrips measured, for `npm run roundtrips:table`. */
    roundTripTable?: string;
  }
}

/** `text` with what lies between `markers` replaced by `block`. */
export function withBlock(
  text: string,
  [startMarker, endMarker]: Markers,
  block: string,
): string {
  const start = text.indexOf(startMarker);
  const end = text.indexOf(endMarker);
  if (start < 0 || end < start) {
    throw new Error(`no ${startMarker} … ${endMarker} block`);
  }
  return `${text.slice(0, start + startMarker.length)}\n${block}\n${text.slice(end)}`;
}
