import type { Database } from "../../db/client";
import type { DocumentSummaryRow } from "../../db/document-summaries";
import type { ReservationRow } from "../../db/reservations";
import type { CredentialRow, OrganizationRow } from "../../db/schema";
import {
  copyCredentials,
  copyReservations,
  copySummaries,
  deleteMovedCredentials,
  deleteMovedReservations,
  deleteMovedSummaries,
  realCredentialsAfter,
  reservationsBeforeSharding,
  summariesBeforeSharding,
} from "../../db/shard-upgrade";
import type { Environment } from "../../schemas/environment";
import { MOVED_TABLES, type UpgradeCursor } from "../../schemas/ops";
import {
  credentialBucket,
  directoryShard,
  keyBucket,
  referenceBucket,
  shardOfBucket,
} from "../shard-routing";

// The second half of the upgrade from one database (docs/scale.md): migration
// 0004 leaves every row of the former database in DB_0; documents and their
// audit trails may stay there (a uuid issued before sharding routes to bucket
// 0), but a reference's reservation, a list's summary and a credential are
// looked up in the shard their routing names. Each call moves one page of
// one table (copied into its shard, then deleted from DB_0) and says where
// the next call starts: stopped at any point, a call from the last cursor
// (or from the start) finishes the job; run again, it moves nothing.

/** Rows read from DB_0 a call: each becomes at most three statements. */
const PAGE_ROWS = 100;

type MovedTable = (typeof MOVED_TABLES)[number];

export interface UpgradeStep {
  table: MovedTable;
  /** Rows moved out of DB_0 by this call. */
  moved: number;
  /** Where the next call starts; null once every table is done. */
  next: UpgradeCursor | null;
}

interface Mover<Row> {
  page(db: Database, after: string[] | null): Promise<Row[]>;
  key(row: Row): string[];
  bucket(row: Row): number;
  copy(db: Database, rows: Row[]): Promise<void>;
  remove(db: Database, rows: Row[]): Promise<void>;
}

const reservations: Mover<ReservationRow> = {
  page: (db, after) =>
    reservationsBeforeSharding(
      db,
      after
        ? ({
            organizationId: after[0],
            environment: after[1],
            reference: after[2],
          } as ReservationRow)
        : null,
      PAGE_ROWS,
    ),
  key: (row) => [row.organizationId, row.environment, row.reference],
  bucket: (row) => referenceBucket(row, row.reference),
  copy: copyReservations,
  remove: deleteMovedReservations,
};

type RoutedSummary = { summary: DocumentSummaryRow; environment: Environment };

const summaries: Mover<RoutedSummary> = {
  page: (db, after) =>
    summariesBeforeSharding(db, after?.[0] ?? null, PAGE_ROWS),
  key: (row) => [row.summary.uuid],
  bucket: (row) =>
    credentialBucket({
      id: row.summary.credentialId,
      environment: row.environment,
    }),
  copy: (db, rows) =>
    copySummaries(
      db,
      rows.map((row) => row.summary),
    ),
  remove: (db, rows) =>
    deleteMovedSummaries(
      db,
      rows.map((row) => row.summary),
    ),
};

type CredentialWithOrganization = {
  credential: CredentialRow;
  organization: OrganizationRow;
};

const credentials: Mover<CredentialWithOrganization> = {
  page: (db, after) => realCredentialsAfter(db, after?.[0] ?? null, PAGE_ROWS),
  key: (row) => [row.credential.id],
  bucket: (row) =>
    keyBucket(row.credential.keyHash, row.credential.environment),
  copy: copyCredentials,
  remove: (db, rows) =>
    deleteMovedCredentials(
      db,
      rows.map((row) => row.credential),
    ),
};

const MOVERS: { [Table in MovedTable]: Mover<never> } = {
  reservations,
  summaries,
  credentials,
} as never;

async function movePage<Row>(
  shards: readonly Database[],
  mover: Mover<Row>,
  after: string[] | null,
): Promise<{ moved: number; last: string[] | null }> {
  const directory = directoryShard(shards);
  const rows = await mover.page(directory, after);
  const last = rows.at(-1);
  if (!last) return { moved: 0, last: null };
  const leaving = Map.groupBy(
    rows.filter((row) => shardOfBucket(mover.bucket(row), shards.length) !== 0),
    (row) => shardOfBucket(mover.bucket(row), shards.length),
  );
  // Copied first, deleted after: stopped in between, a row is in both
  // places, and the next run copies it again (ignored) and deletes it.
  await Promise.all(
    [...leaving].map(([shard, shardRows]) =>
      mover.copy(shards[shard] as Database, shardRows),
    ),
  );
  const moved = [...leaving.values()].flat();
  await mover.remove(directory, moved);
  return { moved: moved.length, last: mover.key(last) };
}

/** One page of the upgrade, from `cursor` (null: the start). */
export async function upgradeShardsStep(
  shards: readonly Database[],
  cursor: UpgradeCursor | null,
): Promise<UpgradeStep> {
  const { table, after } = cursor ?? { table: MOVED_TABLES[0], after: null };
  const { moved, last } = await movePage(shards, MOVERS[table], after);
  const following = MOVED_TABLES[MOVED_TABLES.indexOf(table) + 1];
  return {
    table,
    moved,
    next: last
      ? { table, after: last }
      : following
        ? { table: following, after: null }
        : null,
  };
}
