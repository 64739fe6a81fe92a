// The D1 calls of each operation the year replays, named as the rows of the
// round-trip table of docs/performance.md (test/roundtrips measures them on
// the real bindings): the table says how many D1 round trips an operation
// makes, this says which calls of calls.ts they are and in which shard.
// `checkRoundTrips` fails the run when the two disagree, so that the
// replay follows the service when an operation changes.
import { readFile } from "node:fs/promises";
import { PERFORMANCE_DOC, ROUND_TRIP_TABLE } from "../performance-doc";
import type { QueryCost, QueryName } from "./query-costs";

/**
 * Where a call goes: the shard of the key's hash, of the document's uuid
 * (a correction's is its original's), of the reference's reservation, or
 * of the credential's list.
 */
export type Target = "key" | "document" | "reservation" | "home";

type Calls = readonly (readonly [QueryName, Target])[];

export const OPERATIONS = {
  "Create with a reference": [
    ["authenticate", "key"],
    ["findReservationNotingPdf", "document"],
    ["commitCreate", "document"],
    ["listDocument", "home"],
    ["clearPendingPdf", "document"],
  ],
  "Identical retry": [
    ["authenticate", "key"],
    ["findReservationNotingPdf", "document"],
    ["clearPendingPdf", "document"],
    ["recordEvent", "document"],
  ],
  "Create without a reference": [
    ["authenticate", "key"],
    ["notePendingPdf", "document"],
    ["commitCreate", "document"],
    ["listDocument", "home"],
    ["clearPendingPdf", "document"],
  ],
  // With a new reference; without one, the reservation's call is left out.
  Correct: [
    ["authenticate", "key"],
    ["findOriginalNotingPdf", "document"],
    ["reserveReference", "reservation"],
    ["commitCorrection", "document"],
    ["listDocument", "home"],
    ["clearPendingPdf", "document"],
  ],
  Delete: [
    ["authenticate", "key"],
    ["findOwnDocumentForDeletion", "document"],
    ["unlistDocument", "home"],
    ["deleteDocument", "document"],
  ],
  "Authenticated PDF": [
    ["authenticate", "key"],
    ["findOwnDocument", "document"],
    ["recordEvent", "document"],
  ],
  List: [
    ["authenticate", "key"],
    ["listPage", "home"],
  ],
  // A later scan makes the same calls, its write after the answer.
  "QR within the deletion window, first scan": [
    ["findQrTarget", "document"],
    ["recordQrScan", "document"],
  ],
  "QR after the deletion window": [["recordQrScan", "document"]],
} as const satisfies Record<string, Calls>;

export type Operation = keyof typeof OPERATIONS;

/** D1 round trips of each operation in the round-trip table, by its `D1 …` calls. */
async function tableD1Calls(): Promise<Map<string, number>> {
  const text = await readFile(
    new URL(`../../${PERFORMANCE_DOC}`, import.meta.url),
    "utf8",
  );
  const [start, end] = ROUND_TRIP_TABLE;
  const table = text.slice(text.indexOf(start), text.indexOf(end));
  const counts = new Map<string, number>();
  for (const line of table.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    const [, operation, , , , , , sequence] = cells;
    if (operation && sequence !== undefined) {
      counts.set(operation, sequence.match(/\bD1 /g)?.length ?? 0);
    }
  }
  return counts;
}

/**
 * Each operation's D1 round trips in the replay (as measured of its calls)
 * beside the table's; throws when one differs.
 */
export async function checkRoundTrips(
  costs: Record<QueryName, QueryCost>,
): Promise<Record<Operation, { calls: QueryName[]; d1RoundTrips: number }>> {
  const table = await tableD1Calls();
  const replayed = {} as Record<
    Operation,
    { calls: QueryName[]; d1RoundTrips: number }
  >;
  const differing: string[] = [];
  for (const [operation, calls] of Object.entries(OPERATIONS) as [
    Operation,
    Calls,
  ][]) {
    const d1RoundTrips = calls.reduce(
      (sum, [name]) => sum + costs[name].roundTrips,
      0,
    );
    const expected = table.get(operation);
    if (expected !== d1RoundTrips) {
      differing.push(
        `${operation}: ${d1RoundTrips} replayed, ${expected ?? "no row"} in the table`,
      );
    }
    replayed[operation] = { calls: calls.map(([name]) => name), d1RoundTrips };
  }
  if (differing.length > 0) {
    throw new Error(
      `The replay's D1 calls differ from the round-trip table of ${PERFORMANCE_DOC} (bench/scale/operations.ts):\n${differing.join("\n")}`,
    );
  }
  return replayed;
}
