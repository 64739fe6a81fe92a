import type { Database } from "../../db/client";
import {
  copyOrganizationsPage,
  copyRows,
  deleteUnchangedRows,
  type MovedRow,
  type MovedTable,
  type PageLimit,
  pageOfTable,
} from "../../db/rebalance";
import { ValidationError } from "../../errors";
import {
  REBALANCED_TABLES,
  type RebalancedTable,
  ROW_HOMES,
} from "../row-homes";
import type { Services } from "../services";
import { directoryShard, shardOfBucket } from "../shard-routing";

// Adding shards (docs/scale.md "Adding shards"): with S bindings where there
// were `from`, every row whose bucket now routes elsewhere moves to its
// routed shard. Each step moves one page of one table of one old shard and
// says where the next starts; a job (src/durable-objects/shard-rebalance.ts)
// runs the steps. Re-run, a step moves nothing twice: a row is copied (merged
// into a copy already there), then deleted from its old shard only while it
// is exactly as read; a row written in between stays, and the step after
// reads it again.

const refusal = (message: string) =>
  new ValidationError([{ field: "from", code: "INVALID_VALUE", message }]);

/**
 * Refuses a pass the deployment does not route for. While rows move, a
 * request finds a row not moved yet where SHARDS_BEFORE shards put it; a
 * pass must read exactly those shards, or the rows of the others stay where
 * nothing looks once SHARDS_BEFORE is cleared.
 */
export function checkRebalanceFrom(
  from: number,
  { shards, shardsBefore }: Pick<Services, "shards" | "shardsBefore">,
): void {
  if (shardsBefore === null) {
    throw refusal(
      "SHARDS_BEFORE is not set: set it to the shard count before the new bindings and deploy first (docs/scale.md, Adding shards)",
    );
  }
  if (from !== shardsBefore) {
    throw refusal(
      `must be SHARDS_BEFORE, ${shardsBefore}: the shard count whose rows are not moved yet`,
    );
  }
  if (from >= shards.length) {
    throw refusal(`must be less than the ${shards.length} shards bound now`);
  }
}

/** Refuses to answer for a pass still running from and to other counts: it does not move what this one must. */
export function checkRunningPass(
  running: { from: number; to: number },
  from: number,
  { shards }: Pick<Services, "shards">,
): void {
  if (running.from !== from || running.to !== shards.length) {
    throw refusal(
      `a pass from ${running.from} to ${running.to} shards is still running: start this one once it is done`,
    );
  }
}

export interface RebalanceCursor {
  table: RebalancedTable;
  /** The old shard read. */
  shard: number;
  /** The last rowid done in it. */
  after: number;
}

export interface RebalanceStep {
  table: RebalancedTable;
  /** Rows this step moved (organizations: copied). */
  moved: number;
  /** D1 queries it sent, for the job's budget. */
  queries: number;
  /** Where the next step starts; null once every table is done. */
  next: RebalanceCursor | null;
  /** Why the larger pages it tried first failed (it moved a smaller one). */
  refused: unknown[];
}

// A page travels as one JSON parameter, which D1 binds up to 2,000,000
// bytes. A page of documents stops at the row that reaches 512 KiB of bodies
// (data and metadata): a document's are bounded by the body limit (128 KiB
// by default) and JSON's escaping at most doubles them, so the parameter
// stays under 1.3 MB (the largest documents go 5 a page, 650 KB), while
// documents of a few kilobytes still go 100 a page.
const PAGE: PageLimit = { rows: 100, bytes: 512 * 1024 };

const firstCursor = (
  table: RebalancedTable = "organizations",
): RebalanceCursor => ({ table, shard: 0, after: 0 });

/** The cursor after `cursor`'s table is done in its shard. */
function following(
  cursor: RebalanceCursor,
  from: number,
): RebalanceCursor | null {
  // Organizations are read from DB_0's master rows only.
  if (cursor.table !== "organizations" && cursor.shard + 1 < from) {
    return { table: cursor.table, shard: cursor.shard + 1, after: 0 };
  }
  const table = REBALANCED_TABLES[REBALANCED_TABLES.indexOf(cursor.table) + 1];
  return table ? firstCursor(table) : null;
}

async function moveOrganizations(
  shards: readonly Database[],
  from: number,
  cursor: RebalanceCursor,
): Promise<RebalanceStep> {
  const added = shards.slice(from);
  const last = await copyOrganizationsPage(
    directoryShard(shards),
    added,
    cursor.after,
    PAGE.rows,
  );
  return {
    table: cursor.table,
    moved: 0,
    queries: 1 + (last === null ? 0 : added.length),
    next: last === null ? following(cursor, from) : { ...cursor, after: last },
    refused: [],
  };
}

async function moveRows(
  shards: readonly Database[],
  from: number,
  cursor: RebalanceCursor & { table: MovedTable },
): Promise<RebalanceStep> {
  const { table } = cursor;
  const source = shards[cursor.shard] as Database;
  const rows = await pageOfTable(source, table, cursor.after, PAGE);
  if (rows.length === 0) {
    return {
      table,
      moved: 0,
      queries: 1,
      next: following(cursor, from),
      refused: [],
    };
  }
  // A page D1 refuses (a limit it hit, or an outage) is halved until it
  // moves; a single row that fails fails the step, retried later.
  const refused: unknown[] = [];
  let queries = 1;
  for (let size = rows.length; ; size = Math.ceil(size / 2)) {
    const page = rows.slice(0, size);
    const leaving = Map.groupBy(
      page.filter((row) => routedShard(table, row, shards) !== cursor.shard),
      (row) => routedShard(table, row, shards),
    );
    // A copy into each shard they go to, and the delete.
    queries += leaving.size + (leaving.size > 0 ? 1 : 0);
    try {
      const { moved, after } = await movePage(source, shards, table, leaving);
      return {
        table,
        moved,
        queries,
        next: { ...cursor, after: after ?? (page.at(-1) as MovedRow)._rowid },
        refused,
      };
    } catch (error) {
      if (size === 1) throw error;
      refused.push(error);
    }
  }
}

const routedShard = (
  table: MovedTable,
  row: MovedRow,
  shards: readonly Database[],
): number => shardOfBucket(ROW_HOMES[table].bucket(row), shards.length);

/**
 * Copies the `leaving` rows (by the shard they go to) and deletes them from
 * `source` where still as read: the rows moved, and the rowid before the
 * first row that stayed (null: none did).
 */
async function movePage(
  source: Database,
  shards: readonly Database[],
  table: MovedTable,
  leaving: Map<number, MovedRow[]>,
): Promise<{ moved: number; after: number | null }> {
  await Promise.all(
    [...leaving].map(([target, rows]) =>
      copyRows(shards[target] as Database, table, rows),
    ),
  );
  const moving = [...leaving.values()].flat();
  const deleted = new Set(
    moving.length > 0 ? await deleteUnchangedRows(source, table, moving) : [],
  );
  // A row written since it was read is read again by the next step.
  const stayed = moving
    .map((row) => row._rowid)
    .filter((rowid) => !deleted.has(rowid));
  return {
    moved: deleted.size,
    after: stayed.length > 0 ? Math.min(...stayed) - 1 : null,
  };
}

/** One step of the rebalance from `from` shards to all of `shards`, from `cursor` (null: the start). */
export function rebalanceStep(
  shards: readonly Database[],
  from: number,
  cursor: RebalanceCursor | null,
): Promise<RebalanceStep> {
  const at = cursor ?? firstCursor();
  return at.table === "organizations"
    ? moveOrganizations(shards, from, at)
    : moveRows(shards, from, at as RebalanceCursor & { table: MovedTable });
}
