// Part 1: the bytes one document takes in its shard, hot and once archived,
// measured with dbstat on a fresh database that holds `rows` documents of one
// kind, written by the service's own D1 calls (calls.ts) in the order their
// v8 uuids give (creation time first), then archived by the service's own
// archiver (src/domain/documents/archive-documents.ts).
import { insertOrganizationWithCredential } from "../../src/db/credentials";
import {
  auditEvents,
  type CredentialRow,
  type DocumentRow,
} from "../../src/db/schema";
import { QueryBudget } from "../../src/domain/cron-budget";
import { archiveDocuments } from "../../src/domain/documents/archive-documents";
import { createArchiveStore } from "../../src/storage/archive-store";
import { pdfKeyring } from "../issue-step";
import { YEAR } from "./assumptions";
import * as calls from "./calls";
import {
  credentialOf,
  directory,
  type IssuedKind,
  issuedRow,
  numberedReference,
} from "./documents";
import { MemoryBucket } from "./memory-bucket";
import { ShardDatabase } from "./shard-database";

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
   * their indexes, as the archiver leaves the pages, and after VACUUM (what
   * the rows themselves need).
   */
  slim: { archived: SlimBytes; vacuumed: SlimBytes };
  /** The archive object in R2 (body and audit trail, sealed), on average. */
  storedArchiveBytes: number;
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

/** A fresh shard database in memory (dbstat counts its pages as on disk), closed after `use`. */
export async function withShardDatabase<T>(
  use: (shard: ShardDatabase) => Promise<T>,
): Promise<T> {
  const shard = new ShardDatabase(":memory:");
  try {
    return await use(shard);
  } finally {
    shard.close();
  }
}

/** Organizations and their one credential each, inserted as a new organization is. */
export async function insertDirectory(
  shard: ShardDatabase,
  count: number,
): Promise<CredentialRow[]> {
  const entries = await directory(count, DAY_START);
  for (const { organization, credential } of entries) {
    await insertOrganizationWithCredential(shard.db, organization, credential);
  }
  return entries.map((entry) => entry.credential);
}

const every = (share: number) => Math.round(1 / share);

/**
 * `rows` documents with a reference issued over one day, each written as a
 * create writes it; at the per-document rates of the year, some are
 * corrections (with their own reference), retried, deleted or scanned
 * afterwards. Every shard is this one database.
 */
export async function issueDay(
  shard: ShardDatabase,
  issued: IssuedKind,
  issuers: readonly CredentialRow[],
  rows: number,
): Promise<DocumentRow[]> {
  const { db } = shard;
  const created: DocumentRow[] = [];
  for (let n = 0; n < rows; n++) {
    const at = DAY_START + Math.floor((n * 24 * HOUR) / rows);
    const credential = credentialOf(
      issuers[n % issuers.length] as CredentialRow,
    );
    const reference = numberedReference(issued, n);
    const original = created[n - 1];
    // The previous document: never one of the deleted (n a multiple of 100).
    const correction = n % every(YEAR.correctionShare) === 2 && original;
    const row = issuedRow(issued, credential, at, {
      reference,
      ...(correction ? { rectifies: original } : {}),
    });
    if (correction) {
      await calls.reserveReference(db, row);
      await calls.notePendingPdf(db, row);
      await calls.commitCorrection(db, row);
      original.rectifiedByUuid = row.uuid;
    } else {
      await calls.findReservationNotingPdf(db, row);
      await calls.commitCreate(db, row);
    }
    await calls.listDocument(db, row);
    await calls.clearPendingPdf(db, row);
    if (!correction && n % every(YEAR.retriesPerReferencedCreate) === 0) {
      const retry = issuedRow(issued, credential, at + 1000, { reference });
      await calls.findReservationNotingPdf(db, row, retry);
      await calls.clearPendingPdf(db, retry);
      await calls.recordEvent(db, row, "retried", retry.createdAt);
    }
    await calls.recordEvent(db, row, "pdf_downloaded", at + 2000);
    if (n % every(YEAR.deletionShare) === 0) {
      if (await calls.deleteDocument(db, row, at + HOUR)) {
        row.deletedAt = at + HOUR;
      }
      await calls.unlistDocument(db, row);
    }
    if (n % 10 < YEAR.qrScansPerDocument * 10) {
      await calls.recordQrScan(db, row, at + 2 * HOUR);
    }
    created.push(row);
  }
  return created;
}

/** The archiver's cron task, run at `now` until it finds nothing more to do. */
async function archiveAll(
  shard: ShardDatabase,
  bucket: MemoryBucket,
  now: number,
): Promise<void> {
  const services = {
    shards: [shard.db],
    clock: { now: () => now },
    archives: createArchiveStore(bucket.asR2(), pdfKeyring),
  };
  for (;;) {
    const report = await archiveDocuments(
      services,
      new QueryBudget(Number.POSITIVE_INFINITY),
    );
    if (report.documents === 0 && report.summaries === 0) return;
  }
}

const slimBytes = (
  shard: ShardDatabase,
  empty: Map<string, number>,
  rows: number,
): SlimBytes => {
  const { document, reservation } = perDocument(
    shard.bytesByTable(),
    empty,
    rows,
    1,
  );
  return { document, reservation, total: document + reservation };
};

export async function measureFootprint(
  issued: IssuedKind,
  rows: number,
): Promise<Footprint> {
  return withShardDatabase(async (shard) => {
    const issuers = await insertDirectory(shard, 100);
    const empty = shard.bytesByTable();
    await issueDay(shard, issued, issuers, rows);
    const events = await shard.db.$count(auditEvents);
    const hot = perDocument(shard.bytesByTable(), empty, rows, events);
    const bucket = new MemoryBucket();
    // Every document of the day past its read window and the archiver's margin.
    await archiveAll(shard, bucket, DAY_START + 49 * HOUR);
    const archived = slimBytes(shard, empty, rows);
    shard.vacuum();
    const archives = bucket.sizes("archive/");
    return {
      kind: issued.kind,
      rows,
      hot: {
        ...hot,
        total:
          hot.document + hot.reservation + 2 * hot.auditEvent + hot.summary,
      },
      slim: { archived, vacuumed: slimBytes(shard, empty, rows) },
      storedArchiveBytes:
        archives.reduce((sum, bytes) => sum + bytes, 0) / archives.length,
    };
  });
}
