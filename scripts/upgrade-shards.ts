// `npm run upgrade-shards [-- --remote] [--persist-to DIR]`: the second half
// of the upgrade from one database (docs/scale.md "Migrating from one
// database"). Migration 0004 leaves every row of the former database in DB_0;
// documents and their audit trails may stay there (a uuid issued before
// sharding routes to bucket 0), but a reference's reservation and a list's
// summary are looked up in the shard their routing names. This moves each such
// row of DB_0 that routes elsewhere: INSERT OR IGNORE into its shard, then
// DELETE from DB_0, a bounded batch at a time. Killed at any point, the next
// run finishes the job; run again, it moves nothing. `npm start` runs it after
// the migrations, `npm run deploy` before the new Worker goes live.
import { parseArgs } from "node:util";
import { getTableColumns } from "drizzle-orm";
import { credentials, type Environment } from "../src/db/schema";
import {
  credentialBucket,
  keyBucket,
  referenceBucket,
  shardOfBucket,
} from "../src/domain/shard-routing";
import { type DatabaseTarget, executeSql } from "./lib/d1";
import { DIRECTORY_SHARD, shardBinding, targetShards } from "./lib/shards";
import { organizationCopySql, sqlLiteral } from "./lib/sql";

/** Rows read from DB_0 per round; each round writes at most one script per shard. */
const BATCH_ROWS = 2000;

// Rows written before sharding are the only ones that can be misplaced, and
// only they carry a uuid other than version 8 (the new code puts every row
// in its routed shard from the start).
const WRITTEN_BEFORE_SHARDING = (column: string) =>
  `${column} NOT LIKE '________-____-8%'`;

type Row = Record<string, unknown>;

interface MovedTable {
  table: string;
  /** The primary key, also the order of the scan. */
  key: string[];
  /** The table's columns, as copied to the routed shard. */
  columns: string[];
  /** SELECT of a batch after `cursor` (the key of the last row seen, or none). */
  select: (cursor: Row | undefined) => string;
  /** The bucket a row routes to. */
  bucketOf: (row: Row) => number;
  /** Statements that must precede the row's own in its shard. */
  alongside?: (row: Row) => string;
}

const keyAfter = (alias: string, key: string[], cursor: Row | undefined) =>
  cursor
    ? `(${key.map((column) => `${alias}.${column}`).join(", ")}) > (${key
        .map((column) => sqlLiteral(cursor[column]))
        .join(", ")})`
    : "1";

const RESERVATIONS: MovedTable = {
  table: "reference_reservations",
  key: ["organization_id", "environment", "reference"],
  columns: [
    "organization_id",
    "environment",
    "reference",
    "document_uuid",
    "credential_id",
    "created_at",
  ],
  select: (cursor) =>
    `SELECT r.* FROM reference_reservations r
       WHERE ${WRITTEN_BEFORE_SHARDING("r.document_uuid")}
         AND ${keyAfter("r", RESERVATIONS.key, cursor)}
       ORDER BY r.organization_id, r.environment, r.reference
       LIMIT ${BATCH_ROWS};`,
  bucketOf: (row) =>
    referenceBucket(
      {
        organizationId: String(row.organization_id),
        environment: row.environment as Environment,
      },
      String(row.reference),
    ),
};

// A summary routes by its credential, read from the directory (DB_0).
const SUMMARIES: MovedTable = {
  table: "document_summaries",
  key: ["uuid"],
  columns: [
    "uuid",
    "credential_id",
    "reference",
    "created_at",
    "transport_date",
    "rectifies_uuid",
  ],
  select: (cursor) =>
    `SELECT s.*, c.environment AS credential_environment
       FROM document_summaries s JOIN credentials c ON c.id = s.credential_id
       WHERE ${WRITTEN_BEFORE_SHARDING("s.uuid")}
         AND ${keyAfter("s", SUMMARIES.key, cursor)}
       ORDER BY s.uuid
       LIMIT ${BATCH_ROWS};`,
  bucketOf: (row) =>
    credentialBucket({
      id: String(row.credential_id),
      environment: row.credential_environment as Environment,
    }),
};

// A credential routes by its key's hash (authentication finds it from the
// key alone) and takes a copy of its organization along, which every shard
// holds beside its credentials.
const CREDENTIALS: MovedTable = {
  table: "credentials",
  key: ["id"],
  columns: Object.values(getTableColumns(credentials)).map(
    (column) => column.name,
  ),
  select: (cursor) =>
    `SELECT c.*, o.name AS organization_name,
         o.document_locale AS organization_locale,
         o.created_at AS organization_created_at
       FROM credentials c JOIN organizations o ON o.id = c.organization_id
       WHERE c.environment != 'demo' AND ${keyAfter("c", CREDENTIALS.key, cursor)}
       ORDER BY c.id
       LIMIT ${BATCH_ROWS};`,
  bucketOf: (row) =>
    keyBucket(String(row.key_hash), row.environment as Environment),
  alongside: (row) =>
    organizationCopySql({
      id: String(row.organization_id),
      name: String(row.organization_name),
      document_locale: String(row.organization_locale),
      created_at: Number(row.organization_created_at),
    }),
};

const valuesOf = (row: Row, columns: string[]) =>
  `(${columns.map((column) => sqlLiteral(row[column])).join(", ")})`;

/** Moves the misplaced rows of one table out of DB_0; returns how many moved. */
async function moveTable(
  target: DatabaseTarget,
  shardCount: number,
  moved: MovedTable,
): Promise<number> {
  let count = 0;
  let cursor: Row | undefined;
  for (;;) {
    const [rows = []] = await executeSql(
      target,
      DIRECTORY_SHARD,
      moved.select(cursor),
    );
    if (rows.length === 0) return count;
    cursor = rows.at(-1);
    const byShard = Map.groupBy(rows, (row) =>
      shardOfBucket(moved.bucketOf(row), shardCount),
    );
    byShard.delete(0);
    const leaving = [...byShard.values()].flat();
    if (leaving.length === 0) continue;
    // Copied first, deleted after: a run killed in between leaves a row in
    // both places, which the next run copies again (ignored) and deletes.
    for (const [shard, shardRows] of byShard) {
      await executeSql(
        target,
        shardBinding(shard),
        shardRows
          .map(
            (row) =>
              `${moved.alongside?.(row) ?? ""}
               INSERT OR IGNORE INTO ${moved.table} (${moved.columns.join(", ")}) VALUES ${valuesOf(row, moved.columns)};`,
          )
          .join("\n"),
      );
    }
    await executeSql(
      target,
      DIRECTORY_SHARD,
      leaving
        .map(
          (row) =>
            `DELETE FROM ${moved.table} WHERE (${moved.key.join(", ")}) = ${valuesOf(row, moved.key)};`,
        )
        .join("\n"),
    );
    count += leaving.length;
  }
}

/**
 * Moves every reservation, summary and credential that DB_0 holds for
 * another shard; the credentials last, since a summary's route is read from
 * its credential in DB_0.
 */
export async function upgradeShards(
  target: DatabaseTarget,
): Promise<{ reservations: number; summaries: number; credentials: number }> {
  const shardCount = targetShards(target).length;
  return {
    reservations: await moveTable(target, shardCount, RESERVATIONS),
    summaries: await moveTable(target, shardCount, SUMMARIES),
    credentials: await moveTable(target, shardCount, CREDENTIALS),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      remote: { type: "boolean", default: false },
      "persist-to": { type: "string" },
    },
  });
  const moved = await upgradeShards({
    remote: values.remote,
    persistTo: values["persist-to"],
  });
  console.log(JSON.stringify({ moved }));
}
