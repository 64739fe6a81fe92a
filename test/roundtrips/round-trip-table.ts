import type { RemoteCall } from "../helpers/counting-bindings";

/** What docs/performance.md shows of one operation's round trips. */
export interface RoundTrips {
  operation: string;
  /** Calls the answer waited for. */
  calls: number;
  /** The longest chain of them, one after another. */
  sequential: number;
  /** Calls left to waitUntil after the answer. */
  background: number;
  /** The chain: steps by depth, parallel calls joined by `+`; then the background calls. */
  path: string;
  budget?: number;
}

/** An operation's figures from the calls `CallLedger` recorded. */
export function roundTrips(
  operation: string,
  calls: readonly RemoteCall[],
  budget?: number,
): RoundTrips {
  const answered = calls.filter((call) => !call.background);
  const sequential = Math.max(0, ...answered.map((call) => call.depth));
  const steps = Array.from({ length: sequential }, (_, index) =>
    answered
      .filter((call) => call.depth === index + 1)
      .map((call) => call.label)
      .join(" + "),
  );
  const background = calls.filter((call) => call.background);
  const after = background.map((call) => call.label).join(", ");
  return {
    operation,
    calls: answered.length,
    sequential,
    background: background.length,
    path: [
      steps.join(" → ") || "no call",
      ...(after ? [`then ${after}`] : []),
    ].join("; "),
    ...(budget === undefined ? {} : { budget }),
  };
}

export const withinBudget = ({ sequential, budget }: RoundTrips): boolean =>
  budget === undefined || sequential <= budget;

/** The table between the round-trip markers of docs/performance.md. */
export function roundTripTable(rows: readonly RoundTrips[]): string {
  return [
    "| Operation | Calls | Sequential | Budget | Met | Background | Sequence (`+` in parallel) |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map(
      (row) =>
        `| ${row.operation} | ${row.calls} | ${row.sequential} | ${row.budget === undefined ? "" : `≤ ${row.budget}`} | ${row.budget === undefined ? "" : withinBudget(row) ? "yes" : "no"} | ${row.background} | ${row.path} |`,
    ),
  ].join("\n");
}
