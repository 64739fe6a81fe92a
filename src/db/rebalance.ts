import type { Database } from "./client";

// The rows a rebalance moves (docs/scale.md "Adding shards"), table by table,
// a page at a time in rowid order, as D1 rows (column names as stored).
// A page's rows travel as one JSON parameter (D1 binds at most 100 values a
// statement, and a string of at most 2,000,000 bytes: a page of documents is
// bounded by the bytes of their bodies). Moving is: upsert into the routed
// shard, then delete from the source only the rows still exactly as read. A
// write that landed on the source in between keeps its row there for the
// next pass; a lost answer leaves the row in both shards, and the next pass
// does both again.

export type MovedRow = Record<string, unknown> & { _rowid: number };

interface TableMove {
  /** The columns copied, in the order the upsert lists them. */
  columns: readonly string[];
  /** What the upsert does with a row already in the routed shard. */
  onConflict: string;
  /** The columns that make a row large: a page stops at a number of their bytes. */
  bodies?: readonly string[];
}

// Set-once state fields are merged, never overwritten: a deletion, a
// correction's mark, a first QR access or an archiving that reached either
// copy survives; of the QR access last written, the later. The archiver
// clears the body when it sets archived_at.
const DOCUMENT_MERGE = `ON CONFLICT (uuid) DO UPDATE SET
  deleted_at = coalesce(deleted_at, excluded.deleted_at),
  delete_reason = coalesce(delete_reason, excluded.delete_reason),
  rectified_by_uuid = coalesce(rectified_by_uuid, excluded.rectified_by_uuid),
  first_qr_access_at = min(coalesce(first_qr_access_at, excluded.first_qr_access_at), coalesce(excluded.first_qr_access_at, first_qr_access_at)),
  last_qr_access_at = max(coalesce(last_qr_access_at, excluded.last_qr_access_at), coalesce(excluded.last_qr_access_at, last_qr_access_at)),
  archived_at = coalesce(archived_at, excluded.archived_at),
  data = CASE WHEN coalesce(archived_at, excluded.archived_at) IS NULL THEN data END,
  metadata = CASE WHEN coalesce(archived_at, excluded.archived_at) IS NULL THEN metadata END`;

const EVENT_COLUMNS = [
  "id",
  "type",
  "credential_id",
  "environment",
  "created_at",
  "document_uuid",
  "reference",
  "rectifies_uuid",
  "document_created_at",
  "transport_date",
  "first_access",
  "accessed_via",
  "endpoint_id",
  "dataset_id",
  "shipment",
  "message",
] as const;

/**
 * The move of a table whose rows change in place: the copy written last
 * (its `updated_at`) wins, with every column but those a row is created
 * with (its key, owner and creation time).
 */
const newestWins = (
  key: readonly string[],
  columns: readonly string[],
): TableMove => ({
  columns,
  onConflict: `ON CONFLICT (${key.join(", ")}) DO UPDATE SET ${columns
    .filter(
      (column) =>
        !key.includes(column) &&
        column !== "credential_id" &&
        column !== "created_at",
    )
    .map((column) => `${column} = excluded.${column}`)
    .join(", ")} WHERE excluded.updated_at > updated_at`,
});

export const MOVES = {
  credentials: {
    columns: [
      "id",
      "organization_id",
      "environment",
      "key_hash",
      "key_prefix",
      "key_last_four",
      "allowed_ips",
      "rate_limit_per_minute",
      "created_at",
      "revoked_at",
      "expires_at",
      "requester_ip",
    ],
    // A revocation that reached either copy holds.
    onConflict:
      "ON CONFLICT (id) DO UPDATE SET revoked_at = coalesce(revoked_at, excluded.revoked_at)",
  },
  reference_reservations: {
    columns: [
      "organization_id",
      "environment",
      "reference",
      "document_uuid",
      "credential_id",
      "created_at",
      "rectifies_uuid",
    ],
    // Reservations change only by a correction's retry taking its own one
    // over, and by the cron confirming it; the copy in the routed shard is
    // the one writes reach once it exists.
    onConflict: "ON CONFLICT DO NOTHING",
  },
  documents: {
    columns: [
      "uuid",
      "credential_id",
      "organization_id",
      "environment",
      "reference",
      "created_at",
      "transport_date",
      "rectifies_uuid",
      "rectified_by_uuid",
      "deleted_at",
      "delete_reason",
      "first_qr_access_at",
      "data",
      "metadata",
      "request_hash",
      "document_locale",
      "qr_key_version",
      "pdf_sha256",
      "pdf_size_bytes",
      "pdf_pages",
      "pdf_seal",
      "expires_at",
      "archived_at",
      "last_qr_access_at",
    ],
    onConflict: DOCUMENT_MERGE,
    bodies: ["data", "metadata"],
  },
  audit_events: {
    // The id is each shard's own sequence: an event is recognised by what
    // it says (an empty onConflict says so).
    columns: [
      "document_uuid",
      "type",
      "credential_id",
      "request_id",
      "occurred_at",
    ],
    onConflict: "",
  },
  // A document's eFTI reads, as its audit events.
  efti_reads: {
    columns: [
      "document_uuid",
      "type",
      "dataset_id",
      "gate",
      "credential_id",
      "request_id",
      "occurred_at",
    ],
    onConflict: "",
  },
  // A gate's follow-up messages live beside their document; the id is each
  // shard's own sequence, a message is recognised by what it says.
  efti_follow_ups: {
    columns: [
      "dataset_id",
      "document_uuid",
      "shipment",
      "message_hash",
      "message",
      "gate",
      "request_id",
      "gate_request_id",
      "received_at",
    ],
    onConflict: "",
    bodies: ["message"],
  },
  // A document's events wait in its shard until relayed; the relay's mark
  // that reached either copy holds.
  event_outbox: {
    columns: [...EVENT_COLUMNS, "relayed_at"],
    onConflict:
      "ON CONFLICT (id) DO UPDATE SET relayed_at = coalesce(relayed_at, excluded.relayed_at)",
  },
  // A document's eFTI registrations live in its shard as long as it does;
  // the sent mark that reached either copy holds, and the copy tried more
  // often says where its chain of attempts is.
  efti_registrations: {
    columns: [
      "id",
      "dataset_id",
      "document_uuid",
      "created_at",
      "sent_at",
      "attempts",
      "next_attempt_at",
      "last_status",
      "parked_at",
    ],
    onConflict:
      "ON CONFLICT (id) DO UPDATE SET sent_at = coalesce(sent_at, excluded.sent_at)",
  },
  // A credential's events, endpoints, deliveries and attempts live in its
  // home shard. Events never change; an endpoint's or a delivery's newest
  // write (updated_at) wins; an attempt is recognised by what it says.
  events: { columns: EVENT_COLUMNS, onConflict: "ON CONFLICT DO NOTHING" },
  webhook_endpoints: newestWins(
    ["id"],
    [
      "id",
      "credential_id",
      "url",
      "event_types",
      "description",
      "enabled",
      "disabled_reason",
      "failing_since",
      "secret",
      "previous_secret",
      "previous_secret_expires_at",
      "created_at",
      "updated_at",
    ],
  ),
  webhook_deliveries: newestWins(
    ["event_id", "endpoint_id"],
    [
      "event_id",
      "endpoint_id",
      "credential_id",
      "status",
      "attempts",
      "next_attempt_at",
      "created_at",
      "updated_at",
      "retrying_since",
    ],
  ),
  webhook_attempts: {
    columns: [
      "event_id",
      "endpoint_id",
      "credential_id",
      "attempted_at",
      "status_code",
      "error",
      "duration_ms",
    ],
    onConflict: "",
  },
  pending_pdf_objects: {
    columns: ["object_key", "created_at"],
    onConflict: "ON CONFLICT DO NOTHING",
  },
  pending_deletion_marks: {
    columns: ["document_uuid", "created_at"],
    onConflict: "ON CONFLICT DO NOTHING",
  },
  document_summaries: {
    columns: [
      "uuid",
      "credential_id",
      "reference",
      "created_at",
      "transport_date",
      "rectifies_uuid",
    ],
    onConflict: "ON CONFLICT DO NOTHING",
  },
} as const satisfies Record<string, TableMove>;

export type MovedTable = keyof typeof MOVES;

const field = (column: string) => `json_extract(j.value, '$.${column}')`;

/** How much one page may hold: rows, and bytes of the table's bodies. */
export interface PageLimit {
  rows: number;
  bytes: number;
}

/**
 * The rows of `table` after rowid `after`: up to `limit.rows`, stopping
 * after the row whose bodies reach `limit.bytes` (the first row always). A
 * summary comes with its credential's environment where that credential
 * lives in this shard (a demo token's, in shard 0), since a demo list stays
 * in bucket 0.
 */
export async function pageOfTable(
  db: Database,
  table: MovedTable,
  after: number,
  limit: PageLimit,
): Promise<MovedRow[]> {
  const { bodies } = MOVES[table] as TableMove;
  // The operator's job, never a request: `limit.rows` rows a call, by rowid.
  const query =
    table === "document_summaries"
      ? `SELECT s.rowid AS _rowid, s.*, c.environment AS credential_environment
         FROM document_summaries s LEFT JOIN credentials c ON c.id = s.credential_id
         WHERE s.rowid > ? ORDER BY s.rowid LIMIT ?`
      : bodies
        ? // The sizes of the next rows first, then the rows whose bodies
          // before them stay under the bytes.
          `WITH head AS (
             SELECT rowid AS r, ${bodies
               .map((column) => `coalesce(length(CAST(${column} AS BLOB)), 0)`)
               .join(" + ")} AS bytes
             FROM ${table} WHERE rowid > ? ORDER BY rowid LIMIT ?),
           page AS (
             SELECT r, coalesce(sum(bytes) OVER (ORDER BY r ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
             FROM head)
           SELECT t.rowid AS _rowid, t.* FROM page JOIN ${table} t ON t.rowid = page.r
           WHERE page.before < ? ORDER BY t.rowid`
        : `SELECT rowid AS _rowid, * FROM ${table} WHERE rowid > ? ORDER BY rowid LIMIT ?`;
  const { results } = await db.$client
    .prepare(query)
    .bind(after, limit.rows, ...(bodies ? [limit.bytes] : []))
    .all<MovedRow>();
  return results;
}

/** The statement that copies `rows` of `table` into `db`, merging them into copies already there. */
function copyStatement(
  db: Database,
  table: MovedTable,
  rows: readonly MovedRow[],
): D1PreparedStatement {
  const { columns, onConflict } = MOVES[table];
  const list = columns.join(", ");
  const values = columns.map(field).join(", ");
  const query =
    onConflict === ""
      ? `INSERT INTO ${table} (${list}) SELECT ${values} FROM json_each(?) j
         WHERE NOT EXISTS (SELECT 1 FROM ${table} a WHERE ${columns
           .map((column) => `a.${column} IS ${field(column)}`)
           .join(" AND ")})`
      : // WHERE true: SQLite's parser needs it before an upsert's ON CONFLICT.
        `INSERT INTO ${table} (${list}) SELECT ${values} FROM json_each(?) j WHERE true ${onConflict}`;
  return db.$client.prepare(query).bind(JSON.stringify(rows));
}

/** Copies `rows` of `table` into `db`, merging them into copies already there. */
export async function copyRows(
  db: Database,
  table: MovedTable,
  rows: readonly MovedRow[],
): Promise<void> {
  await copyStatement(db, table, rows).run();
}

/** The statement that deletes from `db` those of `rows` still exactly as read, returning their rowids. */
function deleteUnchangedStatement(
  db: Database,
  table: MovedTable,
  rows: readonly MovedRow[],
): D1PreparedStatement {
  const same = MOVES[table].columns
    .map((column) => `t.${column} IS ${field(column)}`)
    .join(" AND ");
  return db.$client
    .prepare(
      `DELETE FROM ${table} WHERE rowid IN (
         SELECT t.rowid FROM ${table} t JOIN json_each(?) j ON t.rowid = ${field("_rowid")}
         WHERE ${same})
       RETURNING rowid AS _rowid`,
    )
    .bind(JSON.stringify(rows));
}

/**
 * Deletes from `db` those of `rows` still exactly as read; the rowids
 * deleted. A row written since stays for the next pass.
 */
export async function deleteUnchangedRows(
  db: Database,
  table: MovedTable,
  rows: readonly MovedRow[],
): Promise<number[]> {
  const { results } = await deleteUnchangedStatement(db, table, rows).all<{
    _rowid: number;
  }>();
  return results.map((row) => row._rowid);
}

/** Some rows of one table: those whose `column` holds one of `values`. */
export interface RowSelection {
  table: MovedTable;
  column: string;
  values: readonly string[];
}

/** The rows of a table that a move takes together. */
export interface TableRows {
  table: MovedTable;
  rows: MovedRow[];
}

/**
 * Moves the rows `selections` pick from `source` to `target` as the mover
 * moves a page (read; copy, merged; delete where still as read), each step
 * one batch, and nothing more when `source` holds none of them. A request
 * uses it to bring a few rows it is about to work on ahead of the mover
 * (src/domain/row-homes.ts); whatever fails in between leaves them in
 * both, which the mover's next pass settles.
 */
export async function moveRowsAhead(
  source: Database,
  target: Database,
  selections: readonly RowSelection[],
): Promise<void> {
  const read = selections.map(({ table, column, values }) =>
    source.$client
      .prepare(
        `SELECT rowid AS _rowid, * FROM ${table} WHERE ${column} IN (SELECT value FROM json_each(?))`,
      )
      .bind(JSON.stringify(values)),
  );
  const found = (await source.$client.batch<MovedRow>(read))
    .map(
      ({ results }, index): TableRows => ({
        table: (selections[index] as RowSelection).table,
        rows: results,
      }),
    )
    .filter(({ rows }) => rows.length > 0);
  if (found.length === 0) return;
  await target.$client.batch(
    found.map(({ table, rows }) => copyStatement(target, table, rows)),
  );
  await source.$client.batch(
    found.map(({ table, rows }) =>
      deleteUnchangedStatement(source, table, rows),
    ),
  );
}

/** Copies organizations of `from` after rowid `after` into `to`; the last rowid read, null at the end. */
export async function copyOrganizationsPage(
  from: Database,
  to: readonly Database[],
  after: number,
  limit: number,
): Promise<number | null> {
  const { results } = await from.$client
    .prepare(
      "SELECT rowid AS _rowid, * FROM organizations WHERE rowid > ? ORDER BY rowid LIMIT ?",
    )
    .bind(after, limit)
    .all<MovedRow>();
  const last = results.at(-1);
  if (!last) return null;
  const rows = JSON.stringify(results);
  await Promise.all(
    to.map((db) =>
      db.$client
        .prepare(
          `INSERT INTO organizations (id, name, document_locale, created_at)
           SELECT ${["id", "name", "document_locale", "created_at"].map(field).join(", ")}
           FROM json_each(?) j WHERE true ON CONFLICT DO NOTHING`,
        )
        .bind(rows)
        .run(),
    ),
  );
  return last._rowid;
}
