// Part 4: the events (docs/webhooks.md). The day of footprint.ts written by
// the service's calls writes each fact's event into its outbox; the queue's
// consumer is then replayed with the service's own src/db functions, in
// batches of the documents a consumer batch brings to one shard: the
// outbox read, the relay batch in the home shard, the mark, the attempts'
// record. Counted: events a document, bytes a row kept, rows written, the
// cost of each call; then a year of them: rows and bytes kept, messages and
// Queues' operations.
import { purgeEventsBefore } from "../../src/db/event-purge";
import {
  findUnrelayedEvents,
  markRelayed,
  relayToHome,
} from "../../src/db/event-relay";
import {
  eventOutbox,
  type WebhookEndpointRow,
  webhookEndpoints,
} from "../../src/db/schema";
import { recordAttempts } from "../../src/db/webhook-deliveries";
import { EVENT_RETENTION_DAYS } from "../../src/domain/events/retention";
import { randomBase62 } from "../../src/domain/random";
import { D1, EVENTS, QUEUES, type Volume, YEAR } from "./assumptions";
import type { RoundTrip } from "./d1-on-sqlite";
import type { IssuedKind } from "./documents";
import {
  DAY_START,
  HOUR,
  insertDirectory,
  issueDay,
  withShardDatabase,
} from "./footprint";
import type { ShardDatabase } from "./shard-database";

const DAY = 24 * HOUR;

/** The consumer's calls, by name. */
const CONSUMER_CALLS = ["read", "relay", "mark", "record"] as const;
type ConsumerCall = (typeof CONSUMER_CALLS)[number];

export interface EventCallCost {
  /** Round trips of this call per consumer batch in a shard, and those that write. */
  roundTrips: number;
  writes: number;
  localMeanMs: number;
  statedD1Ms: number;
  /** The larger of the two, as query-costs.ts takes it. */
  assumedMs: number;
}

export interface EventFootprint {
  eventsPerDocument: number;
  /** Documents of one consumer batch in one shard: its messages spread over S. */
  documentsPerShardBatch: number;
  /** Bytes a row keeps, its indexes included. */
  bytes: { outbox: number; event: number; delivery: number; attempt: number };
  /** Table rows written per event over its life (D1 also counts each index entry written). */
  rowsWrittenPerEvent: {
    /** The outbox row, in the fact's own batch. */
    fact: number;
    relay: number;
    purge: number;
  };
  calls: Record<ConsumerCall, EventCallCost>;
}

/** One endpoint wanting every type for each credential, as the endpoints API writes it. */
const endpointRow = (credentialId: string): WebhookEndpointRow => ({
  id: `we_${randomBase62(24)}`,
  credentialId,
  url: "https://erp.example/deca/webhooks",
  eventTypes: ["*"],
  description: null,
  enabled: true,
  disabledReason: null,
  failingSince: null,
  // A sealed secret's length: "v1:" and the base64 of 12 + 44 + 16 bytes.
  secret: `v1:${"A".repeat(96)}`,
  previousSecret: null,
  previousSecretExpiresAt: null,
  createdAt: DAY_START,
  updatedAt: DAY_START,
});

const tripCost = (trips: RoundTrip[][]): EventCallCost => {
  const all = trips.flat();
  const writes = all.filter((trip) => trip.write).length;
  const statedD1Ms =
    (writes * D1.statedWriteMs + (all.length - writes) * D1.statedReadMs) /
    trips.length;
  const localMeanMs =
    all.reduce((sum, trip) => sum + trip.ms, 0) / trips.length;
  return {
    roundTrips: all.length / trips.length,
    writes: writes / trips.length,
    localMeanMs,
    statedD1Ms,
    assumedMs: Math.max(localMeanMs, statedD1Ms),
  };
};

/** Table bytes added since `before` in these tables. */
const grew = (
  shard: ShardDatabase,
  before: Map<string, number>,
  table: string,
): number => (shard.bytesByTable().get(table) ?? 0) - (before.get(table) ?? 0);

export function measureEvents(
  issued: IssuedKind,
  rows: number,
  shards: number,
): Promise<EventFootprint> {
  return withShardDatabase(async (shard) => {
    const { db } = shard;
    const issuers = await insertDirectory(shard, 100);
    for (const issuer of issuers) {
      await db.insert(webhookEndpoints).values(endpointRow(issuer.id));
    }
    const empty = shard.bytesByTable();
    const day = await issueDay(shard, issued, issuers, rows);
    const events = await db.$count(eventOutbox);
    const outboxBytes = grew(shard, empty, "event_outbox");

    // The consumer, one shard's part of each batch at a time.
    const perBatch = Math.max(
      1,
      Math.round(EVENTS.messagesPerConsumerBatch / shards),
    );
    const now = DAY_START + 25 * HOUR;
    const trips: Record<ConsumerCall, RoundTrip[][]> = {
      read: [],
      relay: [],
      mark: [],
      record: [],
    };
    const timed = async <T>(call: ConsumerCall, work: () => Promise<T>) => {
      const { result, trips: made } = await shard.roundTrips(work);
      trips[call].push(made);
      return result;
    };
    const beforeRelay = shard.rowsChanged();
    for (let start = 0; start < day.length; start += perBatch) {
      const uuids = day.slice(start, start + perBatch).map((row) => row.uuid);
      const unrelayed = await timed("read", () =>
        findUnrelayedEvents(db, uuids),
      );
      if (unrelayed.length === 0) continue;
      const { deliveries } = await timed("relay", () =>
        relayToHome(db, unrelayed, now),
      );
      await timed("mark", () =>
        markRelayed(
          db,
          unrelayed.map((event) => event.id),
          now,
        ),
      );
      await timed("record", () =>
        recordAttempts(
          db,
          deliveries.map((delivery) => ({
            attempt: {
              ...delivery,
              credentialId:
                unrelayed.find((event) => event.id === delivery.eventId)
                  ?.credentialId ?? "",
              attemptedAt: now,
              statusCode: 200,
              error: null,
              durationMs: 120,
            },
            outcome: {
              status: "delivered" as const,
              nextAttemptAt: null,
              endpoint: "delivered" as const,
            },
          })),
        ),
      );
    }
    const relayRows = shard.rowsChanged() - beforeRelay;
    const bytes = {
      outbox: outboxBytes / events,
      event: grew(shard, empty, "events") / events,
      delivery: grew(shard, empty, "webhook_deliveries") / events,
      attempt: grew(shard, empty, "webhook_attempts") / events,
    };
    const beforePurge = shard.rowsChanged();
    const retention = EVENT_RETENTION_DAYS * DAY;
    while ((await purgeEventsBefore(db, now + retention, 1000)) > 0) {}
    const purgeRows = shard.rowsChanged() - beforePurge;
    return {
      eventsPerDocument: events / rows,
      documentsPerShardBatch: perBatch,
      bytes,
      rowsWrittenPerEvent: {
        fact: 1,
        relay: relayRows / events,
        purge: purgeRows / events,
      },
      calls: Object.fromEntries(
        CONSUMER_CALLS.map((call) => [call, tripCost(trips[call])]),
      ) as Record<ConsumerCall, EventCallCost>,
    };
  });
}

/** A year of events at `volume`: how many, the rows and bytes kept, the messages and their cost. */
export function eventsYear(footprint: EventFootprint, volume: Volume) {
  const eventsAYear = volume.documents * footprint.eventsPerDocument;
  const deliveriesAYear = eventsAYear * EVENTS.endpointsPerCredential;
  // One announcement per committed fact (a correction's two events in one),
  // one delayed message per retry.
  const announcements =
    volume.documents * (1 + YEAR.deletionShare + YEAR.qrScansPerDocument);
  const retries = deliveriesAYear * EVENTS.retriedDeliveryShare;
  const messages = announcements + retries;
  const operations = messages * QUEUES.operationsPerMessage;
  const kept = EVENT_RETENTION_DAYS / 365;
  const { bytes } = footprint;
  const homeBytesPerEvent =
    bytes.event +
    EVENTS.endpointsPerCredential *
      (bytes.delivery + (1 + EVENTS.retriedDeliveryShare) * bytes.attempt);
  const peakEventsPerSecond =
    volume.peakIssuesPerSecond * footprint.eventsPerDocument;
  return {
    eventsAYear,
    deliveriesAYear,
    peakEventsPerSecond,
    queue: {
      messagesAYear: messages,
      operationsAYear: operations,
      monthlyCostUsd: ((operations / 12) * QUEUES.perMillionOperations) / 1e6,
      peakMessagesPerSecond:
        volume.peakIssuesPerSecond *
        (1 + YEAR.deletionShare + YEAR.qrScansPerDocument),
      messagesPerSecondLimit: QUEUES.messagesPerSecondLimit,
    },
    keptBytes: {
      outbox: eventsAYear * kept * bytes.outbox,
      home: eventsAYear * kept * homeBytesPerEvent,
    },
    /** Per event, for the replay: bytes kept in the document's shard and in the home shard. */
    perEvent: { outboxBytes: bytes.outbox, homeBytes: homeBytesPerEvent },
    keptShareOfYear: kept,
    rowsWrittenAYear:
      eventsAYear *
      (footprint.rowsWrittenPerEvent.fact +
        footprint.rowsWrittenPerEvent.relay +
        footprint.rowsWrittenPerEvent.purge),
  };
}
