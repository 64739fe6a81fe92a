// Part 1: the bytes one document takes in its shard, hot and once archived,
// measured with dbstat on a fresh database that holds `rows` documents of one
// kind inserted in the order their v8 uuids give (creation time first).
import { sql as raw } from "drizzle-orm";
import type { CredentialRow } from "../../src/db/schema";
import { auditEvents, credentials, organizations } from "../../src/db/schema";
import { HOT_HOURS, YEAR } from "./assumptions";
import {
  type CreateRows,
  createRows,
  directory,
  type IssuedKind,
} from "./documents";
import { type Built, built, ShardDatabase, sql } from "./shard-database";
import {
  archiveCommit,
  archiveCommitByReinsert,
  archiveSelect,
  commitCorrection,
  commitCreate,
  documentFromColumns,
  hotBatchUuids,
  insertSummary,
  markDeleted,
  pendingPdfNote,
  purgeSummaries,
  recordDownload,
  recordQrAccess,
  reserveReference,
} from "./statements";

export const HOUR = 3_600_000;
/** The day the measured documents are issued. */
export const DAY_START = Date.UTC(2026, 10, 23, 0);

/** Bytes per document in each table (its indexes included). */
interface DocumentBytes {
  document: number;
  reservation: number;
  /** Per audit event. */
  auditEvent: number;
  summary: number;
}

interface SlimBytes {
  document: number;
  reservation: number;
  total: number;
}

export interface Footprint {
  kind: string;
  rows: number;
  /** Row, reservation, two audit events, summary and every index entry of them. */
  hot: DocumentBytes & { total: number };
  /**
   * What stays after the archiver: the slim row and the reservation, with
   * their indexes, as each archiver write leaves the pages, and after VACUUM
   * (what the rows themselves need).
   */
  slim: Record<ArchiverWrite | "vacuumed", SlimBytes>;
}

const tableGroups = {
  document: ["documents"],
  reservation: ["reference_reservations"],
  auditEvent: ["audit_events"],
  summary: ["document_summaries"],
} as const;

function perDocument(
  after: Map<string, number>,
  before: Map<string, number>,
  rows: number,
  events: number,
): Record<keyof typeof tableGroups, number> {
  const delta = (tables: readonly string[]) =>
    tables.reduce(
      (sum, table) => sum + (after.get(table) ?? 0) - (before.get(table) ?? 0),
      0,
    ) / rows;
  return {
    document: delta(tableGroups.document),
    reservation: delta(tableGroups.reservation),
    auditEvent: (delta(tableGroups.auditEvent) * rows) / Math.max(events, 1),
    summary: delta(tableGroups.summary),
  };
}

const auditEventCount = (db: ShardDatabase): number =>
  (
    db.all(
      built(
        sql
          .select({ events: raw<number>`count(*)`.as("events") })
          .from(auditEvents),
      ),
    ) as { events: number }[]
  )[0]?.events ?? 0;

/** A fresh shard database in memory (dbstat counts its pages as on disk), closed after `use`. */
export async function withShardDatabase<T>(
  use: (db: ShardDatabase) => Promise<T>,
): Promise<T> {
  const db = new ShardDatabase(":memory:");
  try {
    return await use(db);
  } finally {
    db.close();
  }
}

/** The directory's rows (organizations and their credential), inserted. */
export async function insertDirectory(
  db: ShardDatabase,
  count: number,
): Promise<CredentialRow[]> {
  const entries = await directory(count, DAY_START);
  for (let i = 0; i < entries.length; i += 500) {
    const slice = entries.slice(i, i + 500);
    db.batch([
      built(sql.insert(organizations).values(slice.map((e) => e.organization))),
      built(sql.insert(credentials).values(slice.map((e) => e.credential))),
    ]);
  }
  return entries.map((entry) => entry.credential);
}

/**
 * `rows` documents issued over one day, each written as a create writes it
 * (pending note, then the batch, then the summary). At the per-document
 * rates of the year, some are corrected, deleted or scanned afterwards.
 */
export function issueDay(
  db: ShardDatabase,
  issued: IssuedKind,
  issuers: readonly CredentialRow[],
  rows: number,
): CreateRows[] {
  const created: CreateRows[] = [];
  const every = (share: number) => Math.round(1 / share);
  for (let n = 0; n < rows; n++) {
    const at = DAY_START + Math.floor((n * 24 * HOUR) / rows);
    const issuer = issuers[n % issuers.length] as CredentialRow;
    const document = createRows(issued, issuer, n, at);
    const original = created[n - 1];
    const statements: Built[] = [pendingPdfNote(document.document.uuid, at)];
    const correction = n % every(YEAR.correctionShare) === 1 && original;
    statements.push(
      ...(correction
        ? [
            reserveReference(document),
            ...commitCorrection(document, original.document.uuid),
          ]
        : commitCreate(document)),
      insertSummary(document),
      recordDownload(document.events[1]),
    );
    if (n % every(YEAR.deletionShare) === 0) {
      statements.push(
        ...markDeleted(document.document.uuid, issuer.id, at + HOUR),
      );
    }
    if (n % 10 < YEAR.qrScansPerDocument * 10) {
      statements.push(...recordQrAccess(document.document.uuid, at + 2 * HOUR));
    }
    db.batch(statements);
    if (correction) original.document.rectifiedByUuid = document.document.uuid;
    created.push(document);
  }
  return created;
}

/** How the archiver's D1 write leaves a row slim (see statements.ts). */
export const ARCHIVER_WRITES = ["update", "reinsert"] as const;
export type ArchiverWrite = (typeof ARCHIVER_WRITES)[number];

/** The archiver over every row older than the hot window, then the summaries' purge. */
function archiveAll(
  db: ShardDatabase,
  rows: number,
  write: ArchiverWrite,
): void {
  const before = DAY_START + (24 + HOT_HOURS) * HOUR;
  const batch = YEAR.archiverBatch;
  for (let done = 0; done < rows; done += batch) {
    if (write === "update") {
      const uuids = (
        db.all(hotBatchUuids(before, batch)) as { uuid: string }[]
      ).map((row) => row.uuid);
      db.batch(archiveCommit(uuids, before));
    } else {
      const [documents] = archiveSelect(before, batch);
      const read = (
        db.all(documents as Built) as Record<string, unknown>[]
      ).map(documentFromColumns);
      db.batch(archiveCommitByReinsert(read, before));
    }
  }
  for (let done = 0; done < rows; done += batch) {
    db.run(purgeSummaries(before, batch));
  }
}

const slimBytes = (
  db: ShardDatabase,
  empty: Map<string, number>,
  rows: number,
): SlimBytes => {
  const { document, reservation } = perDocument(
    db.bytesByTable(),
    empty,
    rows,
    1,
  );
  return { document, reservation, total: document + reservation };
};

/** A fresh shard with the directory and one day of documents of a kind. */
async function filledShard<T>(
  issued: IssuedKind,
  rows: number,
  use: (db: ShardDatabase, empty: Map<string, number>) => T,
): Promise<T> {
  return withShardDatabase(async (db) => {
    const issuers = await insertDirectory(db, 100);
    const empty = db.bytesByTable();
    issueDay(db, issued, issuers, rows);
    return use(db, empty);
  });
}

export async function measureFootprint(
  issued: IssuedKind,
  rows: number,
): Promise<Footprint> {
  const { hot, update, vacuumed } = await filledShard(
    issued,
    rows,
    (db, empty) => {
      const hot = perDocument(
        db.bytesByTable(),
        empty,
        rows,
        auditEventCount(db),
      );
      archiveAll(db, rows, "update");
      const update = slimBytes(db, empty, rows);
      db.vacuum();
      return { hot, update, vacuumed: slimBytes(db, empty, rows) };
    },
  );
  const reinsert = await filledShard(issued, rows, (db, empty) => {
    archiveAll(db, rows, "reinsert");
    return slimBytes(db, empty, rows);
  });
  return {
    kind: issued.kind,
    rows,
    hot: {
      ...hot,
      total: hot.document + hot.reservation + 2 * hot.auditEvent + hot.summary,
    },
    slim: { update, reinsert, vacuumed },
  };
}
