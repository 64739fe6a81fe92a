// A document's audit trail as support reads it (`npm run keys -- audit`,
// GET /ops/v1/documents/{uuid}/audit): the events still in D1 and those the
// archiver moved to R2, and the reads of its eFTI data (efti_reads, never
// archived), in one list.
import { toIsoTime } from "../../clock";
import { auditEventsOfDocument } from "../../db/audit";
import { eftiReadsOfDocument } from "../../db/efti-reads";
import type { ArchivedDocument } from "../../schemas/archived-document";
import type { Services } from "../services";
import { shardsHolding, toDocument } from "../shard-routing";

type AuditEventRecord = ArchivedDocument["auditEvents"][number];

type EftiReadRecord = Awaited<ReturnType<typeof eftiReadsOfDocument>>[number];

/** One event as printed; no body, no key, no QR secret. */
interface TrailEntry {
  occurred_at: string;
  type: string;
  credential_id: string | null;
  /** A gate's read: the gate (its GATE_KEYRING version). */
  gate: string | null;
  /** An eFTI read: the consignment read (null: the owner's list of them). */
  dataset_id: string | null;
  request_id: string;
  /** Where the event is kept: still in D1, or in the R2 archive. */
  source: "d1" | "archive";
}

/**
 * An event by what it says, as the rebalance recognises it (src/db/rebalance.ts):
 * its id is one shard's sequence, so a copy in another shard or the archive
 * has another.
 */
const sameEvent = (event: {
  type: string;
  credentialId: string | null;
  requestId: string;
  occurredAt: number;
}) =>
  `${event.type} ${event.credentialId} ${event.requestId} ${event.occurredAt}`;

const sameRead = (read: EftiReadRecord) =>
  `${sameEvent(read)} ${read.datasetId} ${read.gate}`;

/** `records` with each event once, by `key`. */
const once = <T>(records: readonly T[], key: (record: T) => string): T[] => [
  ...new Map(records.map((record) => [key(record), record])).values(),
];

/**
 * Every event of a document in time order (then by id, audit events before
 * eFTI reads), each once: an event in both places (an archiver run stopped
 * before its D1 update, a row the rebalance copied and has not deleted yet)
 * is shown as the D1 row it still is.
 */
function auditTrail(
  d1Events: readonly AuditEventRecord[],
  archived: ArchivedDocument | null,
  eftiReads: readonly EftiReadRecord[],
): TrailEntry[] {
  const inD1 = new Set(d1Events.map(sameEvent));
  const events = [
    ...d1Events.map((event) => ({ event, source: "d1" as const })),
    ...(archived?.auditEvents ?? [])
      .filter((event) => !inD1.has(sameEvent(event)))
      .map((event) => ({ event, source: "archive" as const })),
  ].map(({ event, source }) => ({
    event: { ...event, gate: null, datasetId: null },
    source,
    order: 0,
  }));
  const reads = eftiReads.map((event) => ({
    event,
    source: "d1" as const,
    order: 1,
  }));
  const all = [...events, ...reads];
  all.sort(
    (a, b) =>
      a.event.occurredAt - b.event.occurredAt ||
      a.order - b.order ||
      a.event.id - b.event.id,
  );
  return all.map(({ event, source }) => ({
    occurred_at: toIsoTime(event.occurredAt),
    type: event.type,
    credential_id: event.credentialId,
    gate: event.gate,
    dataset_id: event.datasetId,
    request_id: event.requestId,
    source,
  }));
}

export interface DocumentAudit {
  document_uuid: string;
  /** Whether the archiver has moved the body and the trail so far to R2. */
  archived: boolean;
  events: TrailEntry[];
}

/** A document's audit trail, in time order, from its shard and its R2 archive. */
export async function documentAudit(
  services: Pick<Services, "shards" | "shardsBefore" | "archives">,
  uuid: string,
): Promise<DocumentAudit> {
  // While a rebalance moves the document's rows, both shards may hold some.
  const holding = shardsHolding(services, toDocument(uuid));
  const [events, archived, eftiReads] = await Promise.all([
    Promise.all(holding.map((shard) => auditEventsOfDocument(shard, uuid))),
    services.archives.get(uuid),
    Promise.all(holding.map((shard) => eftiReadsOfDocument(shard, uuid))),
  ]);
  return {
    document_uuid: uuid,
    archived: archived !== null,
    events: auditTrail(
      once(events.flat(), sameEvent),
      archived,
      once(eftiReads.flat(), sameRead),
    ),
  };
}
