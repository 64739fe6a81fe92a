// A document's audit trail as support reads it (`npm run keys -- audit`,
// GET /ops/v1/documents/{uuid}/audit): the events still in D1 and those the
// archiver moved to R2, in one list.
import { toIsoTime } from "../../clock";
import { auditEventsOfDocument } from "../../db/audit";
import type { ArchivedDocument } from "../../schemas/archived-document";
import type { Services } from "../services";
import { documentShard } from "../shard-routing";

type AuditEventRecord = ArchivedDocument["auditEvents"][number];

/** One event as printed; no body, no key, no QR secret. */
interface TrailEntry {
  occurred_at: string;
  type: string;
  credential_id: string | null;
  request_id: string;
  /** Where the event is kept: still in D1, or in the R2 archive. */
  source: "d1" | "archive";
}

/**
 * Every event of a document in time order (then by id), each once: an event
 * in both places (an archiver run stopped before its D1 update) is shown as
 * the D1 row it still is.
 */
function auditTrail(
  d1Events: readonly AuditEventRecord[],
  archived: ArchivedDocument | null,
): TrailEntry[] {
  const inD1 = new Set(d1Events.map((event) => event.id));
  const events = [
    ...d1Events.map((event) => ({ event, source: "d1" as const })),
    ...(archived?.auditEvents ?? [])
      .filter((event) => !inD1.has(event.id))
      .map((event) => ({ event, source: "archive" as const })),
  ];
  events.sort(
    (a, b) =>
      a.event.occurredAt - b.event.occurredAt || a.event.id - b.event.id,
  );
  return events.map(({ event, source }) => ({
    occurred_at: toIsoTime(event.occurredAt),
    type: event.type,
    credential_id: event.credentialId,
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
  services: Pick<Services, "shards" | "archives">,
  uuid: string,
): Promise<DocumentAudit> {
  const [events, archived] = await Promise.all([
    auditEventsOfDocument(documentShard(services.shards, uuid), uuid),
    services.archives.get(uuid),
  ]);
  return {
    document_uuid: uuid,
    archived: archived !== null,
    events: auditTrail(events, archived),
  };
}
