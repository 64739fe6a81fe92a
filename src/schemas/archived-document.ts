// The archive's own format: the database reads it out (src/db/archive.ts),
// the archive store keeps it (src/storage/archive-store.ts), neither knowing
// the other.

/**
 * What the archiver moves out of D1 once a document is past its window: its
 * body (the stored JSON of `data` and `metadata`, exactly as it was) and the
 * audit events recorded until then.
 */
export interface ArchivedDocument {
  uuid: string;
  data: string;
  metadata: string | null;
  auditEvents: {
    id: number;
    type: string;
    credentialId: string | null;
    requestId: string;
    occurredAt: number;
  }[];
}
