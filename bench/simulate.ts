// `npm run simulate [-- --shards N]
//   [--documents N] [--peak N] [--rows N] [--repetitions N]
//   [--sampled-documents N] [--sampled-seconds N] [--out FILE]`: one year at national volume
// (docs/scale.md). Writes rows with the service's own D1 calls (src/db)
// in SQLite, weighs them and times each call locally, replays the year
// through the real routing, prints a table,
// writes bench/scale.json (fields: bench/README.md) and exits 1 when a shard
// would pass 7 GB within the year or 50% of its time at the peak.
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { runEnvironment } from "./results";
import {
  D1,
  DEFAULT_ROWS_PER_KIND,
  DEFAULT_SHARDS,
  describeAssumptions,
  NATIONAL_VOLUME,
  YEAR,
} from "./scale/assumptions";
import {
  type IssuedKind,
  issueKind,
  KINDS,
  type Kind,
} from "./scale/documents";
import { eventsYear, measureEvents } from "./scale/events";
import { type Footprint, measureFootprint } from "./scale/footprint";
import { checkRoundTrips } from "./scale/operations";
import { measureQueryCosts } from "./scale/query-costs";
import { r2Year } from "./scale/r2";
import { printReport } from "./scale/report";
import {
  dailyProfile,
  largestOrganizationShare,
  replayYear,
} from "./scale/year";

const SLIM_ROW_LIMIT_BYTES = 1000;

function options() {
  const { values } = parseArgs({
    options: {
      shards: { type: "string", default: String(DEFAULT_SHARDS) },
      documents: { type: "string", default: String(NATIONAL_VOLUME.documents) },
      peak: {
        type: "string",
        default: String(NATIONAL_VOLUME.peakIssuesPerSecond),
      },
      rows: { type: "string", default: String(DEFAULT_ROWS_PER_KIND) },
      repetitions: { type: "string", default: "500" },
      "sampled-documents": {
        type: "string",
        default: String(YEAR.sampledDocuments),
      },
      "sampled-seconds": {
        type: "string",
        default: String(YEAR.sampledPeakSeconds),
      },
      out: {
        type: "string",
        default: new URL("./scale.json", import.meta.url).pathname,
      },
    },
  });
  const positive = (name: keyof typeof values) => {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < 1) {
      throw new Error(`--${name} must be a positive integer`);
    }
    return value;
  };
  return {
    shards: positive("shards"),
    volume: {
      documents: positive("documents"),
      peakIssuesPerSecond: positive("peak"),
    },
    rows: positive("rows"),
    repetitions: positive("repetitions"),
    sampledDocuments: positive("sampled-documents"),
    sampledPeakSeconds: positive("sampled-seconds"),
    out: values.out as string,
  };
}

/** A part of the run, announced and timed on stderr. */
async function step<T>(name: string, run: () => Promise<T> | T): Promise<T> {
  const start = performance.now();
  process.stderr.write(`${name}…`);
  const result = await run();
  process.stderr.write(
    ` ${((performance.now() - start) / 1000).toFixed(1)} s\n`,
  );
  return result;
}

const byKind = async <T>(make: (kind: Kind) => Promise<T>) => {
  const result = {} as Record<Kind, T>;
  for (const kind of KINDS) result[kind] = await make(kind);
  return result;
};

async function simulate(run: Omit<ReturnType<typeof options>, "out">) {
  const issued = await step("issuing the three documents", () =>
    byKind(issueKind),
  );
  const footprints = await step(`measuring ${run.rows} rows of each kind`, () =>
    byKind((kind) => measureFootprint(issued[kind], run.rows)),
  );
  const profile = dailyProfile(run.volume);
  const { costs, directoryBytes, archiverVisit } = await step(
    "timing each call",
    () =>
      measureQueryCosts(issued.typical, YEAR.organizations, {
        rows: run.rows,
        repetitions: run.repetitions,
        // The largest organization's 24-hour list on the busiest day (Zipf, exponent 1).
        largestWindow: Math.round(
          profile.busiestDayDocuments * largestOrganizationShare(),
        ),
        shards: run.shards,
        archiverDuePerRun:
          (profile.busiestHourMeanPerSecond * YEAR.cronIntervalSeconds) /
          run.shards,
      }),
  );
  // Each operation's calls, as many as docs/performance.md's round trips.
  const operations = await checkRoundTrips(costs);
  const eventFootprint = await step(
    `relaying and delivering the events of ${run.rows} typical documents`,
    () => measureEvents(issued.typical, run.rows, run.shards),
  );
  const events = eventsYear(eventFootprint, run.volume);
  const year = await step("replaying the year", () =>
    replayYear(footprints, costs, {
      ...run,
      directoryBytes,
      events: {
        perDocument: eventFootprint.eventsPerDocument,
        keptShareOfYear: events.keptShareOfYear,
        perEvent: events.perEvent,
        calls: eventFootprint.calls,
      },
    }),
  );
  const maxShardBytes = Math.max(
    ...year.shards.map((shard) => shard.bytesAtOneYear),
  );
  const maxPeakBusyShare = Math.max(
    ...year.shards.map((shard) => shard.peakBusyShareP99),
  );
  const checks = {
    maxShardBytesAtOneYear: maxShardBytes,
    shardLimitBytes: D1.shardLimitBytes,
    bytesWithinLimit: maxShardBytes <= D1.shardLimitBytes,
    maxPeakBusyShareP99: maxPeakBusyShare,
    peakBusyLimit: D1.peakBusyLimit,
    peakWithinLimit: maxPeakBusyShare <= D1.peakBusyLimit,
    // Otherwise more than 25 hours stay hot, and the bytes above are too low.
    archiverKeepsUp: archiverVisit.archivedPerRun >= archiverVisit.duePerRun,
  };
  return {
    environment: runEnvironment(),
    parameters: {
      shards: run.shards,
      rowsPerKind: run.rows,
      queryRepetitions: run.repetitions,
      volume: run.volume,
      year: {
        ...YEAR,
        sampledDocuments: run.sampledDocuments,
        sampledPeakSeconds: run.sampledPeakSeconds,
      },
      d1: D1,
    },
    assumptions: describeAssumptions(run.shards, run.volume),
    documents: documentFigures(issued, footprints),
    slimRow: slimRowFigures(footprints),
    queryCosts: costs,
    operations,
    directoryBytes,
    archiver: archiverVisit,
    ...year,
    r2: r2Year(issued, footprints, run.volume),
    events: { ...eventFootprint, year: events },
    checks: {
      ...checks,
      pass:
        checks.bytesWithinLimit &&
        checks.peakWithinLimit &&
        checks.archiverKeepsUp,
    },
  };
}

function documentFigures(
  issued: Record<Kind, IssuedKind>,
  footprints: Record<Kind, Footprint>,
) {
  return Object.fromEntries(
    KINDS.map((kind) => {
      const { request, ...figures } = issued[kind];
      const { hot, slim, storedArchiveBytes } = footprints[kind];
      return [kind, { ...figures, storedArchiveBytes, hot, slim }];
    }),
  );
}

function slimRowFigures(footprints: Record<Kind, Footprint>) {
  const largest = Math.max(
    ...KINDS.map((kind) => footprints[kind].slim.archived.document),
  );
  return {
    maxDocumentBytes: largest,
    limitBytes: SLIM_ROW_LIMIT_BYTES,
    withinLimit: largest <= SLIM_ROW_LIMIT_BYTES,
  };
}

export type Simulation = Awaited<ReturnType<typeof simulate>>;

const { out, ...run } = options();
const result = await simulate(run);
await writeFile(out, `${JSON.stringify(result, null, 2)}\n`);
printReport(result);
console.log(`\nwritten: ${out} (${run.shards} shards)`);
process.exitCode = result.checks.pass ? 0 : 1;
