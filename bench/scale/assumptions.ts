import { EVENT_RETENTION_DAYS } from "../../src/domain/events/retention";

// What `npm run simulate` assumes, in one place: every figure here is
// printed and written into bench/scale.json with the words that justify it.
// Sources: Cloudflare's documentation and list prices (the limits docs/scale.md
// states); the rest are stated choices.

/** Spain's road transport: documents a year and the busiest second's issues. */
export const NATIONAL_VOLUME = {
  documents: 120_000_000,
  peakIssuesPerSecond: 200,
};

export type Volume = typeof NATIONAL_VOLUME;

/** How that volume is made: who issues, what, when, and what follows. */
export const YEAR = {
  organizations: 12_000,
  // Zipf's law with exponent 1 over 12,000 organizations: the largest
  // issues 1/H(12000) ≈ 10% of all documents.
  zipfExponent: 1,
  correctionShare: 0.02,
  deletionShare: 0.01,
  referenceShare: 0.7,
  // A create with a reference sent again (an ERP's timeout): the retry
  // reads the reservation, noting and clearing a PDF, and records "retried".
  retriesPerReferencedCreate: 0.05,
  qrScansPerDocument: 0.3,
  // Scans within 3 hours of issue (the deletion window and its margin): a
  // D1 read while R2 gets the PDF, and the access recorded, before the PDF
  // is served on the first scan, after it on later ones. Later ones read
  // only R2 (or the edge cache) and record the access in the background: a
  // D1 write, no read.
  qrScansBeforeSettled: 0.5,
  // Scans after the archiver: their event stays in D1 for good (the
  // earlier ones are archived with the document).
  qrScansAfterArchive: 0.1,
  // Every document's PDF (or QR image) fetched once by its issuer.
  downloadsPerDocument: 1,
  listsPerDocument: 0.1,
  // Every authenticated request reads its credential (with its
  // organization) in the shard of its key's hash: no cache, since a
  // revocation takes effect on the next request.
  credentialReadsPerApiRequest: 1,
  // One live credential per organization: all of the largest
  // organization's requests authenticate in one shard, and its list lives
  // in one home shard.
  credentialsPerOrganization: 1,
  kindMix: { readme: 0.25, typical: 0.74, largest: 0.01 },
  // Monday to Sunday.
  weekdayWeights: [1, 1, 1, 1, 1, 0.35, 0.1],
  // Share of a day's documents issued in each hour (local time), from
  // midnight: loading starts at dawn and peaks at 7 h.
  hourShares: [
    0.5, 0.5, 0.5, 0.5, 0.5, 3, 8, 11, 10, 8, 7, 6.5, 6, 5, 5, 5.5, 5.5, 5, 4,
    3, 2, 1.5, 1, 0.5,
  ],
  // wrangler.toml's cron (*/5 * * * *): demo purge, orphan sweep and
  // archiver, one shard after the other.
  cronIntervalSeconds: 300,
  // Documents of a year drawn through the real routing functions; each
  // stands for documents / sampledDocuments of them.
  sampledDocuments: 1_000_000,
  // Seconds at the peak drawn through the real routing functions; a
  // shard's figure is the 99th percentile of its busy time over them.
  sampledPeakSeconds: 2_000,
} as const;

/** The events of documents' facts and their webhook deliveries (docs/webhooks.md). */
export const EVENTS = {
  // Every credential has one endpoint that wants every type: each event is
  // delivered once (the most deliveries, attempts and rows).
  endpointsPerCredential: 1,
  // Deliveries that need a second attempt (a receiver down for a while):
  // each retry is a delayed message, a read and a record.
  retriedDeliveryShare: 0.05,
  // wrangler.toml's consumer: a batch of up to 100 messages.
  messagesPerConsumerBatch: 100,
} as const;

/**
 * Cloudflare Queues' list price: each message is three operations (write,
 * read, delete) of up to 64 KB; no free tier counted. Its limit: 5,000
 * messages a second per queue (scale-facts.md).
 */
export const QUEUES = {
  operationsPerMessage: 3,
  perMillionOperations: 0.4,
  messagesPerSecondLimit: 5000,
} as const;

/** D1, from scale-facts.md. */
export const D1 = {
  // "About 1 ms a query": a read.
  statedReadMs: 1,
  // "Writes take several milliseconds": a write transaction (one statement
  // or one batch), taken as 4 ms.
  statedWriteMs: 4,
  // The thresholds: 7 GB of the 10 GB a database may hold, and
  // half of a database's time, since it runs one query at a time.
  shardLimitBytes: 7e9,
  peakBusyLimit: 0.5,
} as const;

/** R2 list prices (Standard storage), from scale-facts.md; no free tier counted. */
export const R2_PRICES = {
  storagePerGbMonth: 0.015,
  classAPerMillion: 4.5,
  classBPerMillion: 0.36,
} as const;

/** How long documents stay hot: the archiver takes those older than 25 h. */
export const HOT_HOURS = 25;

export const DEFAULT_SHARDS = 32;
export const DEFAULT_ROWS_PER_KIND = 10_000;

/** The assumptions in words, as printed and written into the JSON. */
export function describeAssumptions(shards: number, volume: Volume): string[] {
  const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;
  return [
    `${volume.documents.toLocaleString("en")} documents a year (corrections included), all live, no demo traffic`,
    `${YEAR.organizations.toLocaleString("en")} organizations, sizes Zipf-distributed with exponent ${YEAR.zipfExponent}; ${YEAR.credentialsPerOrganization} credential each`,
    `${percent(YEAR.correctionShare)} corrections (addressed by uuid, of a document still hot; in the original's bucket, with a new reference as often as documents have one), ${percent(YEAR.deletionShare)} deletions, ${percent(YEAR.referenceShare)} of documents with a reference, ${percent(YEAR.retriesPerReferencedCreate)} of creates with a reference retried`,
    `document kinds: ${percent(YEAR.kindMix.readme)} README's example, ${percent(YEAR.kindMix.typical)} typical, ${percent(YEAR.kindMix.largest)} largest allowed`,
    `${YEAR.qrScansPerDocument} QR scans per document: ${percent(YEAR.qrScansBeforeSettled)} within 3 h of issue (a D1 read while R2 gets the PDF, the access recorded: before the answer on the first scan, after it on later ones), the others one R2 get and the access recorded in the background (a D1 write); ${percent(YEAR.qrScansAfterArchive)} of them after archiving (their event stays in D1)`,
    `${YEAR.downloadsPerDocument} authenticated PDF download per document, ${YEAR.listsPerDocument} list calls per document`,
    `${YEAR.credentialReadsPerApiRequest} credential read per authenticated request, in the shard of its key's hash (one query, joined with the organization's copy there): no credential cache; every shard holds a copy of every organization`,
    `week: Monday to Sunday weighted ${YEAR.weekdayWeights.join(", ")}; day: hourly shares (%) ${YEAR.hourShares.join(", ")} from 0 h`,
    `busiest second: ${volume.peakIssuesPerSecond} issues, each with its own download and, at the per-document rates above, its retry, list call, correction and deletion; QR scans of earlier documents at ${YEAR.qrScansPerDocument} per issue; and in every shard the cron's whole visit (worst case: it falls in that second), with the archiver's documents of ${YEAR.cronIntervalSeconds} s at the busiest hour's rate`,
    `D1 cost of a call: the larger of the local SQLite time of its round trips measured here (the service's src/db functions over node:sqlite) and D1's stated ${D1.statedReadMs} ms a read, ${D1.statedWriteMs} ms a write transaction (statement or batch), per round trip`,
    `one year: every document older than ${HOT_HOURS} h is a slim row; the last ${HOT_HOURS} h are a busiest weekday's documents, hot`,
    `bytes per row measured with dbstat (4 KiB pages, node:sqlite) after writing rows in v8 uuid order with the service's calls, as the service's archiver leaves them (no VACUUM)`,
    `R2: one PDF put and one archive put per document, a get per QR scan (no edge cache hit counted) and per download, two gets and two puts per deletion (its PDF object marked "maybe deleted" by the request, "deleted" by the cron); Standard storage at one year; prices ${R2_PRICES.storagePerGbMonth} $/GB-month, ${R2_PRICES.classAPerMillion} $/million Class A, ${R2_PRICES.classBPerMillion} $/million Class B, no free tier`,
    `events: one per fact (a correction two), each written into its document's outbox in the fact's batch and relayed to its credential's home shard by the queue's consumer, ${EVENTS.messagesPerConsumerBatch} messages a batch (one read and one mark a document shard, one relay batch and one attempts' record a home shard); ${EVENTS.endpointsPerCredential} endpoint per credential wanting every type; ${percent(EVENTS.retriedDeliveryShare)} of deliveries attempted twice; in the busiest second its events are relayed and delivered within that second (worst case); kept ${EVENT_RETENTION_DAYS} days`,
    `Queues: one announcement message per committed fact, one delayed message per retry; ${QUEUES.operationsPerMessage} operations a message at $${QUEUES.perMillionOperations} per million, no free tier; limit ${QUEUES.messagesPerSecondLimit.toLocaleString("en")} messages a second per queue`,
    `${shards} shards, bucket b in shard b mod ${shards}; thresholds ${D1.shardLimitBytes / 1e9} GB per shard at one year, ${percent(D1.peakBusyLimit)} of a shard's time in the busiest second`,
  ];
}
