import type { Database } from "../../db/client";
import {
  copyOrganizationsPage,
  copyRows,
  deleteUnchangedRows,
  type MovedRow,
  type MovedTable,
  pageOfTable,
} from "../../db/rebalance";
import type { Environment } from "../../schemas/environment";
import { uuidOfObjectKey } from "../documents/issue-document";
import {
  credentialBucket,
  directoryShard,
  keyBucket,
  referenceBucket,
  shardOfBucket,
  uuidBucket,
} from "../shard-routing";

// Adding shards (docs/scale.md "Adding shards"): with S bindings where there
// were `from`, every row whose bucket now routes elsewhere moves to its
// routed shard. Each step moves one page of one table of one old shard and
// says where the next starts; a job (src/durable-objects/shard-rebalance.ts)
// runs the steps. Re-run, a step moves nothing twice: a row is copied (merged
// into a copy already there), then deleted from its old shard only while it
// is exactly as read; a row written in between stays, and the step after
// reads it again.

/** Organizations first: every shard holds a copy of each (credentials join it). */
const REBALANCED_TABLES = [
  "organizations",
  "credentials",
  "reference_reservations",
  "documents",
  "audit_events",
  "pending_pdf_objects",
  "pending_deletion_marks",
  "document_summaries",
] as const;

type RebalancedTable = (typeof REBALANCED_TABLES)[number];

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
}

// A page of documents carries their bodies (up to ~30 KB each).
const PAGE_ROWS = 100;
const DOCUMENT_PAGE_ROWS = 20;

const text = (row: MovedRow, column: string): string =>
  String(row[column] ?? "");

const environmentOf = (row: MovedRow, column = "environment"): Environment =>
  text(row, column) as Environment;

/** The bucket each table's row lives in (src/domain/shard-routing.ts). */
const BUCKET: { [Table in MovedTable]: (row: MovedRow) => number } = {
  credentials: (row) => keyBucket(text(row, "key_hash"), environmentOf(row)),
  reference_reservations: (row) =>
    referenceBucket(
      {
        organizationId: text(row, "organization_id"),
        environment: environmentOf(row),
      },
      text(row, "reference"),
    ),
  documents: (row) => uuidBucket(text(row, "uuid")),
  audit_events: (row) => uuidBucket(text(row, "document_uuid")),
  pending_pdf_objects: (row) =>
    uuidBucket(uuidOfObjectKey(text(row, "object_key"))),
  pending_deletion_marks: (row) => uuidBucket(text(row, "document_uuid")),
  // A demo token lives in shard 0 beside its summaries; any other
  // credential's environment routes its list alike.
  document_summaries: (row) =>
    credentialBucket({
      id: text(row, "credential_id"),
      environment:
        row.credential_environment === "demo" ? "demo" : ("test" as const),
    }),
};

const firstCursor = (
  table: RebalancedTable = REBALANCED_TABLES[0],
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
    PAGE_ROWS,
  );
  return {
    table: cursor.table,
    moved: 0,
    queries: 1 + (last === null ? 0 : added.length),
    next: last === null ? following(cursor, from) : { ...cursor, after: last },
  };
}

async function moveRows(
  shards: readonly Database[],
  from: number,
  cursor: RebalanceCursor & { table: MovedTable },
): Promise<RebalanceStep> {
  const { table, shard } = cursor;
  const source = shards[shard] as Database;
  const rows = await pageOfTable(
    source,
    table,
    cursor.after,
    table === "documents" ? DOCUMENT_PAGE_ROWS : PAGE_ROWS,
  );
  const last = rows.at(-1);
  if (!last) {
    return { table, moved: 0, queries: 1, next: following(cursor, from) };
  }
  const leaving = Map.groupBy(
    rows.filter(
      (row) => shardOfBucket(BUCKET[table](row), shards.length) !== shard,
    ),
    (row) => shardOfBucket(BUCKET[table](row), shards.length),
  );
  await Promise.all(
    [...leaving].map(([target, targetRows]) =>
      copyRows(shards[target] as Database, table, targetRows),
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
    table,
    moved: deleted.size,
    queries: 1 + leaving.size + (moving.length > 0 ? 1 : 0),
    next: {
      ...cursor,
      after: stayed.length > 0 ? Math.min(...stayed) - 1 : last._rowid,
    },
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
