// The simulation's figures as tables for a person (the same figures as
// bench/scale.json).
import type { Simulation } from "../simulate";
import { KIND_NAMES, KINDS } from "./documents";

const bytes = (value: number) => `${Math.round(value).toLocaleString("en")} B`;
const gb = (value: number) => `${(value / 1e9).toFixed(2)} GB`;
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
const ms = (value: number) => value.toFixed(3);
const count = (value: number) => Math.round(value).toLocaleString("en");
const usd = (value: number) => `$${value.toFixed(2)}`;

function table(headers: string[], rows: string[][]): void {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: string[]) =>
    cells.map((cell, column) => cell.padStart(widths[column] ?? 0)).join("  ");
  console.log(line(headers));
  for (const row of rows) console.log(line(row));
}

export function printReport(result: Simulation): void {
  console.log(
    `\nBytes per document in its shard (dbstat, 4 KiB pages, ${result.parameters.rowsPerKind.toLocaleString("en")} rows a kind)`,
  );
  table(
    [
      "kind",
      "data",
      "metadata",
      "PDF",
      "hot: row",
      "reservation",
      "audit event",
      "summary",
      "hot total",
      "slim",
      "vacuumed",
      "archive object",
    ],
    KINDS.map((kind) => {
      const figures = result.documents[kind];
      if (!figures) return [kind];
      return [
        kind,
        bytes(figures.dataBytes),
        bytes(figures.metadataBytes),
        `${bytes(figures.pdfBytes)}, ${figures.pdfPages} p.`,
        bytes(figures.hot.document),
        bytes(figures.hot.reservation),
        bytes(figures.hot.auditEvent),
        bytes(figures.hot.summary),
        bytes(figures.hot.total),
        bytes(figures.slim.archived.document),
        bytes(figures.slim.vacuumed.document),
        bytes(figures.storedArchiveBytes),
      ];
    }),
  );
  for (const kind of KINDS) console.log(`  ${kind}: ${KIND_NAMES[kind]}`);
  const slim = result.slimRow;
  console.log(
    `Slim row with its indexes, as the archiver leaves it: at most ${bytes(slim.maxDocumentBytes)}; the issue allows ${bytes(slim.limitBytes)}: ${slim.withinLimit ? "within" : "OVER"}`,
  );

  console.log(
    "\nCost of each D1 call (local SQLite time of its round trips vs D1's stated; the larger is used)",
  );
  table(
    [
      "call",
      "round trips",
      "writes",
      "local mean ms",
      "local p99 ms",
      "D1 stated ms",
      "assumed ms",
    ],
    Object.entries(result.queryCosts).map(([name, cost]) => [
      name,
      String(cost.roundTrips),
      String(cost.writes),
      ms(cost.localMeanMs),
      ms(cost.localP99Ms),
      ms(cost.statedD1Ms),
      ms(cost.assumedMs),
    ]),
  );

  const profile = result.profile;
  console.log(
    `\nProfile: busiest day ${count(profile.busiestDayDocuments)} documents; busiest hour ${percent(profile.busiestHourShare)} of it, ${profile.busiestHourMeanPerSecond.toFixed(1)}/s on average; busiest second ${profile.peakPerSecond}/s (${profile.peakOverBusiestHourMean.toFixed(1)}× the busiest hour's mean); ${count(profile.hotDocumentsAtYearEnd)} hot documents at the year's end`,
  );
  console.log(`\nShards at one year (${result.parameters.shards})`);
  table(
    ["shard", "bytes at one year", "busiest second: mean", "p99", "role"],
    result.shards.map((shard) => [
      String(shard.shard),
      gb(shard.bytesAtOneYear),
      percent(shard.peakBusyShareMean),
      percent(shard.peakBusyShareP99),
      shard.roles.join(", "),
    ]),
  );
  const roles = result.peakBusyShareP99ByRole;
  console.log(
    `Busiest second, p99: shard 0 ${percent(roles.shard0)}; largest organization's credential shard ${percent(roles.largestCredential)}, its home shard ${percent(roles.largestHome)}${roles.others ? `; the others ${percent(roles.others.min)} to ${percent(roles.others.max)}` : ""}`,
  );
  const largest = result.largestOrganization;
  console.log(
    `\nLargest organization: ${percent(largest.shareOfDocuments)} of documents (${count(largest.documentsAYear)} a year, ${largest.documentsInBusiestSecond.toFixed(0)} in the busiest second); its reservations spread over the shards (${count(largest.reservationsPerShard.min)} to ${count(largest.reservationsPerShard.max)} a shard, mean ${count(largest.reservationsPerShard.mean)}); its authentications take ${percent(largest.ownPeakBusyShareMeanAtCredential)} of shard ${largest.credentialShard}'s busiest second, its summaries and lists ${percent(largest.ownPeakBusyShareMeanAtHome)} of shard ${largest.homeShard}'s`,
  );
  const archiver = result.archiver;
  console.log(
    `Archiver: ${archiver.duePerRun} documents come due in a shard between two runs (every 5 minutes) at the busiest hour; a run archives ${archiver.archivedPerRun.toFixed(0)} there (within ${archiver.queriesPerShard} D1 queries)`,
  );

  const r2 = result.r2;
  console.log("\nR2 over one year");
  table(
    ["", "a year", "a month (at one year)"],
    [
      [
        "Class A (puts)",
        count(r2.classAOperationsAYear.total),
        usd(r2.monthlyCostUsdAtOneYear.classA),
      ],
      [
        "Class B (gets)",
        count(r2.classBOperationsAYear.total),
        usd(r2.monthlyCostUsdAtOneYear.classB),
      ],
      [
        "storage at one year",
        gb(r2.storageBytesAtOneYear.total),
        usd(r2.monthlyCostUsdAtOneYear.storage),
      ],
      ["total", "", usd(r2.monthlyCostUsdAtOneYear.total)],
    ],
  );

  const events = result.events;
  const year = events.year;
  console.log(
    `\nEvents: ${events.eventsPerDocument.toFixed(2)} a document; ${count(year.eventsAYear)} a year, ${year.peakEventsPerSecond.toFixed(0)} in the busiest second; each ${bytes(events.bytes.outbox)} in its document's outbox, ${bytes(year.perEvent.homeBytes)} in its home shard (event, delivery, attempts); 30 days of them kept: ${gb(year.keptBytes.outbox + year.keptBytes.home)} in all shards`,
  );
  console.log(
    `Rows written a year (tables; D1 also counts index entries): ${count(year.rowsWrittenAYear)} (${(events.rowsWrittenPerEvent.fact + events.rowsWrittenPerEvent.relay + events.rowsWrittenPerEvent.purge).toFixed(1)} an event)`,
  );
  table(
    [
      "consumer call (a shard's part of a batch)",
      "round trips",
      "writes",
      "local mean ms",
      "assumed ms",
    ],
    Object.entries(events.calls).map(([name, cost]) => [
      `${name} (${events.documentsPerShardBatch} documents)`,
      cost.roundTrips.toFixed(2),
      cost.writes.toFixed(2),
      ms(cost.localMeanMs),
      ms(cost.assumedMs),
    ]),
  );
  console.log(
    `Queues: ${count(year.queue.messagesAYear)} messages a year, ${count(year.queue.operationsAYear)} operations, ${usd(year.queue.monthlyCostUsd)} a month; busiest second ${year.queue.peakMessagesPerSecond.toFixed(0)} messages (limit ${count(year.queue.messagesPerSecondLimit)})`,
  );

  const checks = result.checks;
  console.log(
    `\nLargest shard at one year: ${gb(checks.maxShardBytesAtOneYear)} (limit ${gb(checks.shardLimitBytes)}): ${checks.bytesWithinLimit ? "ok" : "OVER"}`,
  );
  console.log(
    `Busiest shard in the busiest second: ${percent(checks.maxPeakBusyShareP99)} of its time (limit ${percent(checks.peakBusyLimit)}): ${checks.peakWithinLimit ? "ok" : "OVER"}`,
  );
  console.log(
    `Archiver keeps up at the busiest hour: ${checks.archiverKeepsUp ? "ok" : "NO"}`,
  );
  console.log("\nAssumptions:");
  for (const assumption of result.assumptions) console.log(`- ${assumption}`);
}
