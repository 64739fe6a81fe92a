// A document's audit trail as support reads it (`npm run keys -- audit`):
// the events still in D1 and those the archiver moved to R2, in one list.
// Free of Node APIs, so that worker tests run it on real archives.
import { toIsoTime } from "../../src/clock";
import type { ArchivedDocument } from "../../src/storage/archive-store";
import { sqlLiteral } from "./sql";

type AuditEventRecord = ArchivedDocument["auditEvents"][number];

/** One event as printed; no body, no key, no QR secret. */
export interface TrailEntry {
  occurred_at: string;
  type: string;
  credential_id: string | null;
  request_id: string;
  /** Where the event is kept: still in D1, or in the R2 archive. */
  source: "d1" | "archive";
}

/** The query of a document's events in D1, with the archive's field names. */
export const d1EventsSql = (uuid: string): string =>
  `SELECT id, type, credential_id AS credentialId, request_id AS requestId, occurred_at AS occurredAt
     FROM audit_events WHERE document_uuid = ${sqlLiteral(uuid)} ORDER BY id`;

/**
 * Every event of a document in time order (then by id), each once: an event
 * in both places (an archiver run stopped before its D1 update) is shown as
 * the D1 row it still is.
 */
export function auditTrail(
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
