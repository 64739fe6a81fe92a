// Part 2: what each D1 query of the design costs, timed on a local SQLite
// shard holding the whole directory, a day of typical documents and the
// largest organization's list window. Local SQLite time is not D1's: the
// cost the replay uses is the larger of this and D1's stated figure.
import { performance } from "node:perf_hooks";
import type { CredentialRow } from "../../src/db/schema";
import { documentSummaries } from "../../src/db/schema";
import { newDocumentUuid } from "../../src/domain/shard-routing";
import { percentile } from "../stats";
import { D1, HOT_HOURS, YEAR } from "./assumptions";
import { type CreateRows, createRows, type IssuedKind } from "./documents";
import {
  type ArchiverWrite,
  DAY_START,
  HOUR,
  insertDirectory,
  issueDay,
  withShardDatabase,
} from "./footprint";
import { type Built, built, type ShardDatabase, sql } from "./shard-database";
import * as statements from "./statements";

type QueryKind = "read" | "write";

/** Each query of the design, read or write (one transaction: a statement or a batch). */
const QUERY_KINDS = {
  authenticate: "read",
  reservationLookup: "read",
  pendingPdfNote: "write",
  commitCreate: "write",
  reserveReference: "write",
  commitCorrection: "write",
  insertSummary: "write",
  readDocument: "read",
  recordDownload: "write",
  qrLookup: "read",
  recordQrAccess: "write",
  markDeleted: "write",
  clearDeletionMark: "write",
  deleteSummary: "write",
  listPage: "read",
  listDeepPage: "read",
  archiveSelect: "read",
  archiveCommit: "write",
  purgeSummaries: "write",
} as const satisfies Record<string, QueryKind>;

export type QueryName = keyof typeof QUERY_KINDS;

export interface QueryCost {
  kind: QueryKind;
  statements: number;
  localMeanMs: number;
  localP99Ms: number;
  statedD1Ms: number;
  /** The larger of the local mean and D1's stated figure: what the replay uses. */
  assumedMs: number;
}

/** Runs the query `runs` times, each built (and its inputs read) before its timing starts. */
function time(
  db: ShardDatabase,
  name: QueryName,
  runs: number,
  make: (run: number) => Built[],
): QueryCost {
  let statementCount = 0;
  const samples = Array.from({ length: runs }, (_, run) => {
    const query = make(run);
    statementCount = query.length;
    const start = performance.now();
    if (query.length === 1) db.run(query[0] as Built);
    else db.batch(query);
    return performance.now() - start;
  });
  const kind = QUERY_KINDS[name];
  const localMeanMs = samples.reduce((sum, ms) => sum + ms, 0) / samples.length;
  const statedD1Ms = kind === "read" ? D1.statedReadMs : D1.statedWriteMs;
  return {
    kind,
    statements: statementCount,
    localMeanMs,
    localP99Ms: percentile(samples, 0.99),
    statedD1Ms,
    assumedMs: Math.max(localMeanMs, statedD1Ms),
  };
}

/** The largest credential's list window: `count` summaries over the last 24 hours. */
function fillWindow(
  db: ShardDatabase,
  credential: CredentialRow,
  count: number,
  now: number,
) {
  for (let i = 0; i < count; i += 500) {
    const rows = Array.from({ length: Math.min(500, count - i) }, (_, j) => {
      const createdAt =
        now - 24 * HOUR + Math.floor(((i + j) * 24 * HOUR) / count);
      return {
        uuid: newDocumentUuid((i + j) % 4096, createdAt),
        credentialId: credential.id,
        reference: `PED-2026-${String(i + j).padStart(7, "0")}`,
        createdAt,
        transportDate: "2026-11-24",
        rectifiesUuid: null,
      };
    });
    db.run(built(sql.insert(documentSummaries).values(rows)));
  }
}

export interface QueryCostOptions {
  rows: number;
  repetitions: number;
  /** Summaries in the largest credential's 24-hour window. */
  largestWindow: number;
  archiverWrite: ArchiverWrite;
}

export function measureQueryCosts(
  issued: IssuedKind,
  options: QueryCostOptions,
): Promise<{
  costs: Record<QueryName, QueryCost>;
  /** The directory's bytes (organization, credential, indexes) per organization. */
  directoryBytesPerOrganization: number;
}> {
  return withShardDatabase(async (db) => {
    const empty = db.bytesByTable();
    const issuers = await insertDirectory(db, YEAR.organizations);
    const filled = db.bytesByTable();
    const directoryBytesPerOrganization =
      ["organizations", "credentials"].reduce(
        (sum, table) =>
          sum + (filled.get(table) ?? 0) - (empty.get(table) ?? 0),
        0,
      ) / YEAR.organizations;
    const day = issueDay(db, issued, issuers, options.rows);
    const now = DAY_START + (24 + HOT_HOURS) * HOUR;
    const largest = issuers[0] as CredentialRow;
    fillWindow(db, largest, options.largestWindow, now);

    const n = options.repetitions;
    const pick = <T>(items: readonly T[], i: number): T =>
      items[(i * 7919) % items.length] as T;
    const fresh = (offset: number) =>
      Array.from({ length: n }, (_, i) =>
        createRows(
          issued,
          pick(issuers, i),
          options.rows + offset + i,
          now + i,
        ),
      );
    const [creates, corrections, reservations] = [
      fresh(0),
      fresh(n),
      fresh(2 * n),
    ];
    const created = (i: number) => creates[i] as CreateRows;
    const doc = (i: number) => pick(day, i).document;
    const since = now - 24 * HOUR;
    const batch = YEAR.archiverBatch;
    const archiveRuns = Math.max(
      1,
      Math.min(n, Math.floor(options.rows / batch / 2)),
    );

    const costs: Partial<Record<QueryName, QueryCost>> = {};
    const measure = (
      name: QueryName,
      make: (i: number) => Built[],
      runs = n,
    ) => {
      costs[name] = time(db, name, runs, make);
    };
    measure("authenticate", (i) => [
      statements.authenticate(pick(issuers, i).keyHash),
    ]);
    measure("reservationLookup", (i) => [
      statements.reservationLookup(pick(day, i).reservation),
    ]);
    measure("readDocument", (i) => [
      statements.readDocument(doc(i).uuid, doc(i).credentialId),
    ]);
    measure("qrLookup", (i) => [statements.qrLookup(doc(i).uuid)]);
    measure("listPage", () =>
      statements.listPage(largest.id, since, { offset: 0, limit: 25 }),
    );
    measure("listDeepPage", () =>
      statements.listPage(largest.id, since, { offset: 999 * 25, limit: 25 }),
    );
    measure("pendingPdfNote", (i) => [
      statements.pendingPdfNote(created(i).document.uuid, now),
    ]);
    measure("commitCreate", (i) => statements.commitCreate(created(i)));
    measure("insertSummary", (i) => [statements.insertSummary(created(i))]);
    measure("recordDownload", (i) => [
      statements.recordDownload(created(i).events[1]),
    ]);
    measure("reserveReference", (i) => [
      statements.reserveReference(reservations[i] as CreateRows),
    ]);
    // Each correction of its own original: one not corrected yet by issueDay.
    const originals = day.filter(
      (rows) => rows.document.rectifiedByUuid === undefined,
    );
    measure(
      "commitCorrection",
      (i) =>
        statements.commitCorrection(
          corrections[i] as CreateRows,
          (originals[i] as CreateRows).document.uuid,
        ),
      Math.min(n, originals.length),
    );
    measure("recordQrAccess", (i) =>
      statements.recordQrAccess(doc(i + 2).uuid, now),
    );
    measure("markDeleted", (i) =>
      statements.markDeleted(
        created(i).document.uuid,
        created(i).document.credentialId,
        now,
      ),
    );
    measure("clearDeletionMark", (i) => [
      statements.clearDeletionMark(created(i).document.uuid),
    ]);
    measure("deleteSummary", (i) => [
      statements.deleteSummary(created(i).document.uuid),
    ]);
    measure(
      "archiveSelect",
      () => statements.archiveSelect(now, batch),
      archiveRuns,
    );
    measure(
      "archiveCommit",
      () => {
        const [documents] = statements.archiveSelect(now, batch);
        const rows = (
          db.all(documents as Built) as Record<string, unknown>[]
        ).map(statements.documentFromColumns);
        return options.archiverWrite === "update"
          ? statements.archiveCommit(
              rows.map((row) => row.uuid),
              now,
            )
          : statements.archiveCommitByReinsert(rows, now);
      },
      archiveRuns,
    );
    measure(
      "purgeSummaries",
      () => [statements.purgeSummaries(since, batch)],
      archiveRuns,
    );
    return {
      costs: costs as Record<QueryName, QueryCost>,
      directoryBytesPerOrganization,
    };
  });
}
