import type { GateCallChainPage, GateCallRecord } from "../../schemas/ops";
import { sha256Hex } from "../sha256";

// The hash chain of the gates' audit trail (docs/efti.md "Audit trail"):
// each row carries the SHA-256 of its fields and of the hash of the row
// before it, so a row altered, removed or inserted anywhere breaks the link
// at it. The Worker writes with it, `npm run keys -- verify-audit` checks
// with it, and the daily exports to R2 carry it.

/** The `previous_hash` of the chain's first row. */
export const CHAIN_START = "0".repeat(64);

/** The fields a row's hash covers, in order: all but `id` and `hash`, `previous_hash` last. */
const HASHED = [
  "entry",
  "operation",
  "request_id",
  "gate_request_id",
  "dataset_id",
  "subsets",
  "subsets_served",
  "gate",
  "client_ip",
  "status",
  "started_at",
  "finished_at",
  "previous_hash",
] as const satisfies readonly Exclude<keyof GateCallRecord, "id" | "hash">[];

/** The hash of a row: SHA-256 (hex) of its HASHED fields as a JSON array. */
export const gateCallHash = (
  record: Omit<GateCallRecord, "id" | "hash">,
): Promise<string> =>
  sha256Hex(JSON.stringify(HASHED.map((field) => record[field])));

/** Where a chain breaks: the row whose `previous_hash` is not the hash before it, or whose `hash` is not its own. */
export interface BrokenLink {
  id: number;
  reason: "previous_hash" | "hash";
}

/**
 * Walks the whole chain, a page at a time (`page(after)`: the rows after
 * row `after`, oldest first), from CHAIN_START: how many rows it checked and
 * the first broken link, or null when every link holds.
 */
export async function walkGateCallChain(
  page: (after?: number) => Promise<GateCallChainPage>,
): Promise<{ checked: number; broken: BrokenLink | null }> {
  let previous = CHAIN_START;
  let checked = 0;
  let after: number | undefined;
  for (;;) {
    const { data, has_more } = await page(after);
    for (const record of data) {
      if (record.previous_hash !== previous) {
        return { checked, broken: { id: record.id, reason: "previous_hash" } };
      }
      if ((await gateCallHash(record)) !== record.hash) {
        return { checked, broken: { id: record.id, reason: "hash" } };
      }
      previous = record.hash;
      checked++;
      after = record.id;
    }
    if (!has_more || data.length === 0) return { checked, broken: null };
  }
}
