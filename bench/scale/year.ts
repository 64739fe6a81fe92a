// Part 3: a year at national volume, by sampling through the real routing
// (src/domain/shard-routing.ts): where every kind of row lands, how many
// bytes each shard holds after one year, and each shard's busy time in the
// busiest second.
import {
  credentialBucket,
  keyBucket,
  randomBucket,
  referenceBucket,
  shardOfBucket,
} from "../../src/domain/shard-routing";
import { percentile } from "../stats";
import { D1, EVENTS, HOT_HOURS, type Volume, YEAR } from "./assumptions";
import { directory, KINDS, type Kind } from "./documents";
import type { EventCallCost } from "./events";
import type { Footprint } from "./footprint";
import { OPERATIONS, type Operation, type Target } from "./operations";
import type { QueryCost, QueryName } from "./query-costs";

/** A reproducible uniform [0, 1) source (mulberry32) for everything but the routing. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Each organization's share of documents by rank (Zipf's law). */
function zipfShares(): number[] {
  const weights = Array.from(
    { length: YEAR.organizations },
    (_, rank) => 1 / (rank + 1) ** YEAR.zipfExponent,
  );
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return weights.map((weight) => weight / total);
}

export const largestOrganizationShare = (): number => zipfShares()[0] ?? 0;

/** Organizations by rank, each with its one credential, and a draw by share of documents. */
async function zipfOrganizations(random: () => number) {
  const shares = zipfShares();
  let running = 0;
  const cumulative = shares.map((share) => (running += share));
  const organizations = (await directory(shares.length, 0)).map(
    ({ organization, credential }) => ({
      id: organization.id,
      // Where its list lives, and where its key is found.
      homeBucket: credentialBucket(credential),
      keyBucket: keyBucket(credential.keyHash, credential.environment),
    }),
  );
  /** An organization's rank, drawn by its share of documents. */
  const draw = (): number => {
    const u = random();
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((cumulative[middle] as number) < u) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  return { organizations, draw, largestShare: shares[0] ?? 0 };
}

/** The week and day of the profile: the busiest day, hour and second. */
export function dailyProfile(volume: Volume) {
  const weekWeight = YEAR.weekdayWeights.reduce((sum, w) => sum + w, 0);
  const busiestDayDocuments =
    (volume.documents * Math.max(...YEAR.weekdayWeights)) /
    ((weekWeight * 365) / 7);
  const hourTotal = YEAR.hourShares.reduce((sum, share) => sum + share, 0);
  const busiestHourShare = Math.max(...YEAR.hourShares) / hourTotal;
  const busiestHourMeanPerSecond =
    (busiestDayDocuments * busiestHourShare) / 3600;
  return {
    busiestDayDocuments,
    busiestHourShare,
    busiestHourMeanPerSecond,
    peakPerSecond: volume.peakIssuesPerSecond,
    peakOverBusiestHourMean:
      volume.peakIssuesPerSecond / busiestHourMeanPerSecond,
    hotDocumentsAtYearEnd: (busiestDayDocuments * HOT_HOURS) / 24,
  };
}

export interface YearOptions {
  shards: number;
  volume: Volume;
  sampledDocuments: number;
  sampledPeakSeconds: number;
  /** Bytes of an organization (a copy in every shard) and of a credential (in its key's shard). */
  directoryBytes: { organization: number; credential: number };
  /** The events of a document's facts: events.ts. */
  events: {
    perDocument: number;
    keptShareOfYear: number;
    perEvent: { outboxBytes: number; homeBytes: number };
    calls: Record<"read" | "relay" | "mark" | "record", EventCallCost>;
  };
}

interface ShardYear {
  shard: number;
  bytesAtOneYear: number;
  peakBusyShareMean: number;
  peakBusyShareP99: number;
  roles: string[];
}

const kindOf = (u: number): Kind => {
  let running = 0;
  for (const kind of KINDS) {
    running += YEAR.kindMix[kind];
    if (u < running) return kind;
  }
  return "typical";
};

export async function replayYear(
  footprints: Record<Kind, Footprint>,
  costs: Record<QueryName, QueryCost>,
  options: YearOptions,
) {
  const random = seededRandom(15);
  const chance = (share: number) => random() < share;
  const { shards } = options;
  const shardOf = (bucket: number) => shardOfBucket(bucket, shards);
  const zipf = await zipfOrganizations(random);
  const { volume } = options;
  const profile = dailyProfile(volume);
  let referenceSerial = 0;
  /** A document's routing: its bucket and, with a reference, the reservation's. */
  const route = (rank: number, correction: boolean) => {
    const organization = zipf.organizations[
      rank
    ] as (typeof zipf.organizations)[number];
    const reservation = chance(YEAR.referenceShare)
      ? referenceBucket(
          { organizationId: organization.id, environment: "live" },
          `PED-2026-${referenceSerial++}`,
        )
      : null;
    const bucket =
      correction || reservation === null ? randomBucket("live") : reservation;
    return { bucket, reservation, organization };
  };

  // Bytes at one year: every document slim but the last HOT_HOURS, hot;
  // every organization in every shard, each credential in its key's shard.
  const bytes = new Array<number>(shards).fill(
    options.directoryBytes.organization * YEAR.organizations,
  );
  for (const organization of zipf.organizations) {
    const shard = shardOf(organization.keyBucket);
    bytes[shard] = (bytes[shard] ?? 0) + options.directoryBytes.credential;
  }
  const weight = volume.documents / options.sampledDocuments;
  const hotShare = profile.hotDocumentsAtYearEnd / volume.documents;
  const laterScanEvents = YEAR.qrScansPerDocument * YEAR.qrScansAfterArchive;
  const largestReservations = new Array<number>(shards).fill(0);
  for (let i = 0; i < options.sampledDocuments; i++) {
    const rank = zipf.draw();
    const { hot, slim } = footprints[kindOf(random())];
    const kept = slim.archived;
    const { bucket, reservation, organization } = route(
      rank,
      chance(YEAR.correctionShare),
    );
    const document =
      (1 - hotShare) * (kept.document + laterScanEvents * hot.auditEvent) +
      hotShare * (hot.document + 2 * hot.auditEvent);
    const add = (b: number, amount: number) => {
      const shard = shardOf(b);
      bytes[shard] = (bytes[shard] ?? 0) + weight * amount;
    };
    add(bucket, document);
    add(organization.homeBucket, hotShare * hot.summary);
    // Its events of the last 30 days: the outbox row beside the document,
    // the event, its delivery and attempts in the credential's home.
    const events = options.events.perDocument * options.events.keptShareOfYear;
    add(bucket, events * options.events.perEvent.outboxBytes);
    add(organization.homeBucket, events * options.events.perEvent.homeBytes);
    if (reservation !== null) {
      add(reservation, kept.reservation);
      if (rank === 0) {
        const shard = shardOf(reservation);
        largestReservations[shard] = (largestReservations[shard] ?? 0) + weight;
      }
    }
  }

  // The busiest second, sampled: each shard's busy time, in ms.
  const cost = (...names: QueryName[]) =>
    names.reduce((sum, name) => sum + costs[name].assumedMs, 0);
  const busy = Array.from({ length: options.sampledPeakSeconds }, () =>
    new Array<number>(shards).fill(0),
  );
  const largest = zipf.organizations[0] as (typeof zipf.organizations)[number];
  const largestHome = shardOf(largest.homeBucket);
  const largestCredential = shardOf(largest.keyBucket);
  const largestOwnMs = { home: 0, credential: 0 };
  // The cron visits every shard once a run (src/scheduled.ts); the events'
  // tasks: two reads (lost events, lost deliveries) and a purge batch.
  const cronVisit = (shard: number) =>
    cost("archiverVisit", "orphanSweepVisit") +
    2 * D1.statedReadMs +
    D1.statedWriteMs +
    (shard === 0 ? cost("demoPurgeVisit") : 0);
  const { calls: eventCalls } = options.events;
  for (const second of busy) {
    const spend = (bucket: number, ms: number) => {
      const shard = shardOf(bucket);
      second[shard] = (second[shard] ?? 0) + ms;
    };
    // Each event of the second: its document's shard and its home shard.
    const events: { source: number; home: number }[] = [];
    for (let issue = 0; issue < volume.peakIssuesPerSecond; issue++) {
      const rank = zipf.draw();
      const correction = chance(YEAR.correctionShare);
      const { bucket, reservation, organization } = route(rank, correction);
      /** An operation's calls, each in its shard (operations.ts); the reservation's only with a reference. */
      const replay = (operation: Operation, document = bucket) => {
        const targets: Record<Target, number | null> = {
          key: organization.keyBucket,
          document,
          reservation,
          home: organization.homeBucket,
        };
        for (const [name, target] of OPERATIONS[operation]) {
          const at = targets[target];
          if (at === null) continue;
          const ms =
            cost(name) *
            (target === "key" ? YEAR.credentialReadsPerApiRequest : 1);
          spend(at, ms);
          if (rank !== 0) continue;
          if (target === "key") largestOwnMs.credential += ms;
          if (target === "home") largestOwnMs.home += ms;
        }
      };
      // The issue (create-document.ts, rectify-document.ts, issue-document.ts).
      if (correction) replay("Correct");
      else if (reservation === null) replay("Create without a reference");
      else {
        replay("Create with a reference");
        if (chance(YEAR.retriesPerReferencedCreate)) replay("Identical retry");
      }
      for (let d = 0; d < YEAR.downloadsPerDocument; d++) {
        replay("Authenticated PDF");
      }
      if (chance(YEAR.listsPerDocument)) replay("List");
      if (chance(YEAR.deletionShare)) replay("Delete");
      if (chance(YEAR.qrScansPerDocument)) {
        // A scan of an earlier document: any bucket.
        replay(
          chance(YEAR.qrScansBeforeSettled)
            ? "QR within the deletion window, first scan"
            : "QR after the deletion window",
          randomBucket("live"),
        );
      }
      const own = {
        source: shardOf(bucket),
        home: shardOf(organization.homeBucket),
      };
      const extra = options.events.perDocument - 1;
      events.push(own, ...(chance(extra) ? [own] : []));
    }
    // The consumer's batches: one read and one mark a document shard, one
    // relay batch and one record a home shard, as if in that very second.
    for (
      let start = 0;
      start < events.length;
      start += EVENTS.messagesPerConsumerBatch
    ) {
      const batch = events.slice(
        start,
        start + EVENTS.messagesPerConsumerBatch,
      );
      for (const source of new Set(batch.map((event) => event.source))) {
        second[source] =
          (second[source] ?? 0) +
          eventCalls.read.assumedMs +
          eventCalls.mark.assumedMs;
      }
      for (const home of new Set(batch.map((event) => event.home))) {
        second[home] =
          (second[home] ?? 0) +
          eventCalls.relay.assumedMs +
          eventCalls.record.assumedMs;
      }
    }
    for (let shard = 0; shard < shards; shard++) {
      second[shard] = (second[shard] ?? 0) + cronVisit(shard);
    }
  }

  const shardFigures: ShardYear[] = bytes.map((shardBytes, shard) => {
    const seconds = busy.map((second) => (second[shard] ?? 0) / 1000);
    const roles = [
      ...(shard === 0 ? ["demo sessions"] : []),
      ...(shard === largestCredential
        ? ["largest organization's credential"]
        : []),
      ...(shard === largestHome ? ["largest organization's home"] : []),
    ];
    return {
      shard,
      bytesAtOneYear: shardBytes,
      peakBusyShareMean:
        seconds.reduce((sum, s) => sum + s, 0) / seconds.length,
      peakBusyShareP99: percentile(seconds, 0.99),
      roles,
    };
  });
  const p99 = (shard: number) => shardFigures[shard]?.peakBusyShareP99 ?? 0;
  const special = new Set([0, largestCredential, largestHome]);
  const others = shardFigures.filter((shard) => !special.has(shard.shard));
  const meanReservations =
    largestReservations.reduce((sum, count) => sum + count, 0) / shards;
  return {
    profile,
    shards: shardFigures,
    peakBusyShareP99ByRole: {
      shard0: p99(0),
      largestCredential: p99(largestCredential),
      largestHome: p99(largestHome),
      // null when those three are every shard.
      others:
        others.length === 0
          ? null
          : {
              min: Math.min(...others.map((shard) => shard.peakBusyShareP99)),
              max: Math.max(...others.map((shard) => shard.peakBusyShareP99)),
            },
    },
    largestOrganization: {
      shareOfDocuments: zipf.largestShare,
      documentsAYear: zipf.largestShare * volume.documents,
      documentsInBusiestSecond: zipf.largestShare * volume.peakIssuesPerSecond,
      credentialShard: largestCredential,
      ownPeakBusyShareMeanAtCredential:
        largestOwnMs.credential / 1000 / busy.length,
      homeShard: largestHome,
      ownPeakBusyShareMeanAtHome: largestOwnMs.home / 1000 / busy.length,
      reservationsPerShard: {
        min: Math.min(...largestReservations),
        max: Math.max(...largestReservations),
        mean: meanReservations,
      },
    },
  };
}
