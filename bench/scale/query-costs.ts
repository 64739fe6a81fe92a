// Part 2: what each D1 call of the service costs, timed on a local SQLite
// shard holding the whole directory, a day of typical documents and the
// largest organization's list window. Each call runs through src/db over
// d1-on-sqlite.ts, which times every round trip in SQLite. Local SQLite time
// is not D1's: the cost the replay uses is the larger of this and D1's
// stated figure for the call's round trips.
import type { Database } from "../../src/db/client";
import { insertSummary } from "../../src/db/document-summaries";
import type { CredentialRow, DocumentRow } from "../../src/db/schema";
import { CRON_QUERY_SHARES, QueryBudget } from "../../src/domain/cron-budget";
import { purgeExpiredDemoSessions } from "../../src/domain/demo/purge-expired-sessions";
import { archiveDocuments } from "../../src/domain/documents/archive-documents";
import { sweepOrphanPdfs } from "../../src/domain/documents/sweep-orphan-pdfs";
import { BUCKET_COUNT, newDocumentUuid } from "../../src/domain/shard-routing";
import { archiveCutoff } from "../../src/domain/windows";
import { createArchiveStore } from "../../src/storage/archive-store";
import { createPdfStore } from "../../src/storage/pdf-store";
import { pdfKeyring } from "../issue-step";
import { percentile } from "../stats";
import { D1 } from "./assumptions";
import * as calls from "./calls";
import type { RoundTrip } from "./d1-on-sqlite";
import {
  credentialOf,
  type IssuedKind,
  issuedRow,
  numberedReference,
} from "./documents";
import {
  DAY_START,
  HOUR,
  insertDirectory,
  issueDay,
  withShardDatabase,
} from "./footprint";
import { MemoryBucket } from "./memory-bucket";
import type { ShardDatabase } from "./shard-database";

/** The D1 calls timed, by name (calls.ts), and the cron's visit to one shard. */
const QUERIES = [
  "authenticate",
  "findReservationNotingPdf",
  "notePendingPdf",
  "commitCreate",
  "findOriginalNotingPdf",
  "reserveReference",
  "commitCorrection",
  "listDocument",
  "clearPendingPdf",
  "findOwnDocument",
  "recordEvent",
  "findQrTarget",
  "recordQrScan",
  "findOwnDocumentForDeletion",
  "deleteDocument",
  "unlistDocument",
  "listPage",
  "listDeepPage",
  // The cron (every 5 minutes), on one shard: the archiver's rounds and
  // stale summaries, the orphan sweep's look, and in shard 0 the demo purge.
  "archiverVisit",
  "orphanSweepVisit",
  "demoPurgeVisit",
] as const;

export type QueryName = (typeof QUERIES)[number];

type RowCall = (db: Database, row: DocumentRow) => Promise<unknown>;

export interface QueryCost {
  /** Calls to D1 (a statement or a batch each), and how many of them write. */
  roundTrips: number;
  writes: number;
  localMeanMs: number;
  localP99Ms: number;
  /** D1's stated cost of those round trips: a read 1 ms, a write transaction 4 ms. */
  statedD1Ms: number;
  /** The larger of the local mean and D1's stated figure: what the replay uses. */
  assumedMs: number;
}

/** Runs the call `runs` times; its cost is the SQLite time of its round trips. */
async function time(
  shard: ShardDatabase,
  runs: number,
  make: (run: number) => Parameters<ShardDatabase["roundTrips"]>[0],
): Promise<QueryCost> {
  let trips: RoundTrip[] = [];
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    ({ trips } = await shard.roundTrips(make(run)));
    samples.push(trips.reduce((sum, trip) => sum + trip.ms, 0));
  }
  const writes = trips.filter((trip) => trip.write).length;
  const statedD1Ms =
    writes * D1.statedWriteMs + (trips.length - writes) * D1.statedReadMs;
  const localMeanMs = samples.reduce((sum, ms) => sum + ms, 0) / samples.length;
  return {
    roundTrips: trips.length,
    writes,
    localMeanMs,
    localP99Ms: percentile(samples, 0.99),
    statedD1Ms,
    assumedMs: Math.max(localMeanMs, statedD1Ms),
  };
}

/** The largest credential's list window: `count` documents listed over the last 24 hours. */
async function fillWindow(
  shard: ShardDatabase,
  credentialId: string,
  count: number,
  now: number,
) {
  for (let i = 0; i < count; i++) {
    const createdAt = now - 24 * HOUR + Math.floor((i * 24 * HOUR) / count);
    await insertSummary(shard.db, {
      uuid: newDocumentUuid(i % BUCKET_COUNT, createdAt),
      credentialId,
      reference: `PED-2026-${String(i).padStart(7, "0")}`,
      createdAt,
      transportDate: "2026-11-24",
      rectifiesUuid: null,
    });
  }
}

export interface QueryCostOptions {
  rows: number;
  repetitions: number;
  /** Summaries in the largest credential's 24-hour window. */
  largestWindow: number;
  shards: number;
  /** Documents that come due for the archiver in one shard between two cron runs. */
  archiverDuePerRun: number;
}

export interface ArchiverVisit {
  /** Documents that come due in one shard between two runs, at the busiest hour. */
  duePerRun: number;
  /** Documents archived by one run in one shard, on average (at most its queries' worth). */
  archivedPerRun: number;
  /** A shard's part of the archiver's share of a run's D1 queries (src/domain/cron-budget.ts). */
  queriesPerShard: number;
}

export function measureQueryCosts(
  issued: IssuedKind,
  organizations: number,
  options: QueryCostOptions,
): Promise<{
  costs: Record<QueryName, QueryCost>;
  /** The directory's bytes: an organization (in every shard), a credential (in one). */
  directoryBytes: { organization: number; credential: number };
  archiverVisit: ArchiverVisit;
}> {
  return withShardDatabase(async (shard) => {
    const { db } = shard;
    const empty = shard.bytesByTable();
    const issuers = await insertDirectory(shard, organizations);
    const filled = shard.bytesByTable();
    const grew = (table: string) =>
      ((filled.get(table) ?? 0) - (empty.get(table) ?? 0)) / organizations;
    const directoryBytes = {
      organization: grew("organizations"),
      credential: grew("credentials"),
    };
    const day = await issueDay(shard, issued, issuers, options.rows);
    const now = DAY_START + (24 + 25) * HOUR;
    const largest = issuers[0] as CredentialRow;
    await fillWindow(shard, largest.id, options.largestWindow, now);

    const n = options.repetitions;
    const pick = <T>(items: readonly T[], i: number): T =>
      items[(i * 7919) % items.length] as T;
    const byId = new Map(issuers.map((row) => [row.id, row]));
    const fresh = Array.from({ length: n }, (_, i) =>
      issuedRow(issued, credentialOf(pick(issuers, i)), now + i, {
        reference: numberedReference(issued, options.rows + i),
      }),
    );
    // Each correction of its own original, neither corrected nor deleted yet.
    const originals = day.filter(
      (row) => row.rectifiedByUuid === null && row.deletedAt === null,
    );
    const corrections = originals.slice(0, n).map((original, i) =>
      issuedRow(
        issued,
        credentialOf(byId.get(original.credentialId) as CredentialRow),
        now + i,
        {
          reference: numberedReference(issued, options.rows + n + i),
          rectifies: original,
        },
      ),
    );
    const created = (i: number) => fresh[i] as DocumentRow;
    const corrected = (i: number) => corrections[i] as DocumentRow;
    const old = (i: number) => pick(day, i);

    const costs: Partial<Record<QueryName, QueryCost>> = {};
    const measure = async (
      name: QueryName,
      make: (i: number) => Parameters<ShardDatabase["roundTrips"]>[0],
      runs = n,
    ) => {
      costs[name] = await time(shard, runs, make);
    };
    await measure(
      "authenticate",
      (i) => (db) => calls.authenticate(db, pick(issuers, i).keyHash),
    );
    // Calls of one row each, in the order an operation makes them: on rows
    // of the day, on a create with a reference (then its deletion), and on a
    // correction with a new reference.
    const onRows = async (
      rows: (i: number) => DocumentRow,
      sequence: Partial<Record<QueryName, RowCall>>,
      runs = n,
    ) => {
      for (const [name, call] of Object.entries(sequence)) {
        await measure(
          name as QueryName,
          (i) => (db) => call(db, rows(i)),
          runs,
        );
      }
    };
    await onRows(old, {
      findOwnDocument: calls.findOwnDocument,
      findQrTarget: calls.findQrTarget,
      recordQrScan: (db, row) => calls.recordQrScan(db, row, now),
    });
    await measure(
      "listPage",
      () => (db) => calls.listPage(db, largest.id, now, 1),
    );
    await measure(
      "listDeepPage",
      () => (db) => calls.listPage(db, largest.id, now, 1000),
    );
    // A create without a reference notes its PDF by itself; the note goes
    // before the same rows are created with one.
    await onRows(created, {
      notePendingPdf: calls.notePendingPdf,
      clearPendingPdf: calls.clearPendingPdf,
    });
    await onRows(created, {
      findReservationNotingPdf: calls.findReservationNotingPdf,
      commitCreate: calls.commitCreate,
      listDocument: calls.listDocument,
      clearPendingPdf: calls.clearPendingPdf,
      recordEvent: (db, row) =>
        calls.recordEvent(db, row, "pdf_downloaded", now + HOUR),
      findOwnDocumentForDeletion: (db, row) =>
        calls.findOwnDocumentForDeletion(db, row, now + HOUR),
      deleteDocument: (db, row) => calls.deleteDocument(db, row, now + HOUR),
      unlistDocument: calls.unlistDocument,
    });
    await onRows(
      corrected,
      {
        findOriginalNotingPdf: calls.findOriginalNotingPdf,
        reserveReference: calls.reserveReference,
        commitCorrection: calls.commitCorrection,
      },
      corrections.length,
    );

    const bucket = new MemoryBucket();
    const cron = (at: number) => ({
      shards: [db],
      shardsBefore: null,
      clock: { now: () => at },
      archives: createArchiveStore(bucket.asR2(), pdfKeyring),
      pdfs: createPdfStore(bucket.asR2(), pdfKeyring),
    });
    // Successive runs, each finding the next `due` documents of the day past
    // the archiver's cutoff, with the rounds a shard gets among S.
    const due = Math.max(1, Math.round(options.archiverDuePerRun));
    const queries = Math.floor(CRON_QUERY_SHARES.archive / options.shards);
    const visits = Math.max(1, Math.min(n, Math.floor(options.rows / due) - 1));
    const runAt = (visit: number) =>
      DAY_START +
      Math.floor(((visit + 1) * due * 24 * HOUR) / options.rows) +
      (now - archiveCutoff(now));
    let archived = 0;
    await measure(
      "archiverVisit",
      (visit) => async (db) => {
        const report = await archiveDocuments(
          { ...cron(runAt(visit)), shards: [db] },
          new QueryBudget(queries),
        );
        archived += report.documents;
      },
      visits,
    );
    await measure(
      "orphanSweepVisit",
      () => () =>
        sweepOrphanPdfs(
          cron(now),
          new QueryBudget(CRON_QUERY_SHARES.orphanPdfs),
        ),
    );
    await measure(
      "demoPurgeVisit",
      () => () =>
        purgeExpiredDemoSessions(
          cron(now),
          new QueryBudget(CRON_QUERY_SHARES.demoSessions),
        ),
    );
    return {
      costs: costs as Record<QueryName, QueryCost>,
      directoryBytes,
      archiverVisit: {
        duePerRun: due,
        archivedPerRun: archived / visits,
        queriesPerShard: queries,
      },
    };
  });
}
